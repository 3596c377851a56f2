import type { PutPart } from './upload-task';

/**
 * Sends a part with XMLHttpRequest, the one browser API that reports upload progress. The part's
 * headers (its `x-amz-checksum-sha256`…) are the API's, sent as given. The storage answers the part's
 * ETag, which S3 buckets must expose to the page through CORS (`ExposeHeaders: ETag`, see docs/files.md).
 */
export const xhrPutPart: PutPart = ({ url, headers, body, signal, onProgress }) =>
  new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    request.open('PUT', url);
    for (const [name, value] of Object.entries(headers)) request.setRequestHeader(name, value);
    request.upload.onprogress = (event) => onProgress(event.loaded);
    request.onload = () => {
      const etag = request.getResponseHeader('ETag');
      if (request.status >= 200 && request.status < 300 && etag) resolve({ etag });
      else reject(new Error(`The storage refused the part (status ${request.status}).`));
    };
    request.onerror = () => reject(new Error('The part could not be sent.'));
    request.onabort = () => reject(new DOMException('Canceled', 'AbortError'));
    if (signal.aborted) return request.abort();
    signal.addEventListener('abort', () => request.abort(), { once: true });
    request.send(body);
  });

/** The same with `fetch` (no progress until the part is sent): for environments without XHR. */
export const fetchPutPart: PutPart = async ({ url, headers, body, signal, onProgress }) => {
  const response = await fetch(url, { method: 'PUT', headers, body, signal });
  const etag = response.headers.get('ETag');
  if (!response.ok || !etag) throw new Error(`The storage refused the part (status ${response.status}).`);
  onProgress(body.size);
  return { etag };
};
