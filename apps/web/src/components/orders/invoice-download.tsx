import { NamedAPIError } from '@tessera/sdk';
import { useState } from 'react';
import { Alert, ApiErrorAlert } from '../ui/alert';
import { Button } from '../ui/button';
import { Card, CardTitle } from '../ui/card';

export interface InvoiceDownloadProps {
  /** The order says its invoice exists (`is_invoice_generated`). */
  isGenerated: boolean;
  /** Asks for the invoice (the API accepts with 202 and renders it in the background). */
  generate: () => Promise<unknown>;
  /** Reads the order again: true once its invoice exists. */
  isReady: () => Promise<boolean>;
  /** A short-lived link to the PDF. */
  link: () => Promise<{ url: string }>;
  /** Said before the invoice exists. */
  description: string;
  /** How often and how long to look for the rendered invoice (tests shorten them). */
  pollIntervalMs?: number;
  pollTimeoutMs?: number;
}

type Phase = 'idle' | 'generating' | 'downloading';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class InvoiceTimeout extends Error {
  constructor() {
    super('The invoice is taking longer than usual. Try again in a minute.');
  }
}

/** Starts the browser's download of a link (the server answers it as an attachment). */
function startDownload(url: string) {
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = '';
  anchor.rel = 'noopener';
  document.body.append(anchor);
  anchor.click();
  anchor.remove();
}

/**
 * The order's invoice as one button, for the dashboard and the customer portal: when the invoice does
 * not exist yet it is requested, the button says it is being generated while the order is read again
 * until it is, and then the PDF is downloaded through a fresh short-lived link.
 */
export function InvoiceDownload({
  isGenerated,
  generate,
  isReady,
  link,
  description,
  pollIntervalMs = 1000,
  pollTimeoutMs = 60_000,
}: InvoiceDownloadProps) {
  const [phase, setPhase] = useState<Phase>('idle');
  const [error, setError] = useState<unknown>(null);

  async function download() {
    setError(null);
    try {
      if (!isGenerated) {
        setPhase('generating');
        try {
          await generate();
        } catch (reason) {
          // Someone generated it meanwhile: download that one.
          if (!(reason instanceof NamedAPIError && reason.error === 'InvoiceAlreadyExists')) throw reason;
        }
        const deadline = Date.now() + pollTimeoutMs;
        while (!(await isReady())) {
          if (Date.now() > deadline) throw new InvoiceTimeout();
          await sleep(pollIntervalMs);
        }
      }
      setPhase('downloading');
      startDownload((await link()).url);
    } catch (reason) {
      setError(reason);
    } finally {
      setPhase('idle');
    }
  }

  return (
    <Card>
      <CardTitle>Invoice</CardTitle>
      <div className="space-y-3">
        {!isGenerated && <p className="text-sm text-slate-600">{description}</p>}
        <Button variant="secondary" isPending={phase !== 'idle'} onClick={() => void download()}>
          {phase === 'generating' ? 'Generating invoice…' : 'Download invoice'}
        </Button>
        {phase === 'generating' && (
          <p role="status" className="text-sm text-slate-700">
            The invoice is being generated. The download starts as soon as it is ready.
          </p>
        )}
        {error instanceof InvoiceTimeout ? (
          <Alert tone="error" title={error.message} />
        ) : (
          <ApiErrorAlert error={error} />
        )}
      </div>
    </Card>
  );
}
