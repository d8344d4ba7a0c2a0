import * as os from 'node:os';
import { defaultCheckoutStore } from '../core/workflow/checkout-store';

/** The store of disguised checkouts' records: `--store`, else `$SCHRODINGER_STORE`, else under `~/.local/state/schrodinger-views`. */
export function checkoutStore(given: string | undefined): string {
  return given ?? defaultCheckoutStore(process.env, os.homedir());
}

export const STORE_HELP = 'where disguised checkouts keep their records (the pristine base, the level record), apart from the working copy (default: $SCHRODINGER_STORE, else ~/.local/state/schrodinger-views/checkouts)';
