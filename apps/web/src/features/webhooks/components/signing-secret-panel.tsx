import { Alert } from '../../../components/ui/alert';
import { CopyButton } from '../../../components/ui/copy-button';

/** A signing secret on the one occasion it is shown. */
export function SigningSecretPanel({ secret }: { secret: string }) {
  return (
    <div className="space-y-4">
      <Alert tone="info" title="Copy this signing secret now: it is shown only once.">
        Your server uses it to check that events come from Tessera. Tessera keeps it only to sign deliveries and never
        shows it again; if you lose it, generate a new one from the endpoint's page.
      </Alert>
      <div className="flex flex-wrap items-center gap-2">
        <code
          aria-label="Signing secret"
          className="min-w-0 flex-1 rounded-md bg-slate-100 px-3 py-2 font-mono text-sm break-all text-slate-900"
        >
          {secret}
        </code>
        <CopyButton value={secret} label="Copy secret" />
      </div>
    </div>
  );
}
