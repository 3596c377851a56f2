import { useState, type ReactNode } from 'react';
import { Button, type ButtonProps } from './button';
import { Dialog, DialogActions } from './dialog';

export interface ConfirmButtonProps extends Omit<ButtonProps, 'onClick'> {
  title: string;
  description: string;
  confirmLabel: string;
  onConfirm(): void;
  children: ReactNode;
}

/** A destructive action behind a confirmation dialog (keyboard and screen-reader friendly, unlike confirm()). */
export function ConfirmButton({ title, description, confirmLabel, onConfirm, children, ...props }: ConfirmButtonProps) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="danger" size="sm" {...props} onClick={() => setOpen(true)}>
        {children}
      </Button>
      <Dialog open={open} onOpenChange={setOpen} title={title} description={description}>
        <DialogActions>
          <Button variant="secondary" onClick={() => setOpen(false)}>
            Cancel
          </Button>
          <Button
            variant="danger"
            onClick={() => {
              setOpen(false);
              onConfirm();
            }}
          >
            {confirmLabel}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
