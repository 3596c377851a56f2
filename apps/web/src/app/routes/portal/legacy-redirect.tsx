import { Navigate, useLocation, useParams } from 'react-router';

/**
 * `/:slug/portal/*`: the portal's address in links made before it moved under /portal (the reference's
 * `customer_portal_url` form). The query string, and with it the session token, goes along.
 */
export function Component() {
  const { slug = '', '*': rest = '' } = useParams();
  const { search, hash } = useLocation();
  const path = `/portal/${encodeURIComponent(slug)}${rest ? `/${rest}` : ''}`;
  return <Navigate to={{ pathname: path, search, hash }} replace />;
}
