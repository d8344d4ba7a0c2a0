/**
 * The instance record of each view's working copy (core/workflow/instance-record.ts), read once:
 * it changes only through `update`. A record that cannot be read is said when it is first read,
 * and again by every command that needs it.
 */
import * as vscode from 'vscode';
import { UsageError } from '../core/common/errors';
import { findInstanceRecord, writeInstanceRecord, type InstanceRecord } from '../core/workflow/instance-record';
import type { Log } from './log';
import type { OpenView } from './views';

export class InstanceRecords {
  /** By working copy: the record, null for a view of no instance, the error for an unreadable record. */
  private readonly read = new Map<string, InstanceRecord | null | UsageError>();

  constructor(private readonly log: Log, private readonly stores: readonly string[]) {}

  /** The view's instance record; undefined for a view of no instance and for a record that cannot be read. */
  of(view: OpenView): InstanceRecord | undefined {
    const found = this.lookup(view);
    return found instanceof UsageError ? undefined : (found ?? undefined);
  }

  /**
   * The record of `view` for a command on the instance being solved; undefined, once the person
   * has been told why (`notInstance`, or what is wrong with the record), when there is none.
   */
  forCommand(view: OpenView | undefined, notInstance = 'this view is not an instance being solved.'): InstanceRecord | undefined {
    const reportedBefore = view !== undefined && this.read.has(view.record.repository);
    const found = view && this.lookup(view);
    if (found instanceof UsageError) {
      if (reportedBefore) this.report(found);
      return undefined;
    }
    if (!found) {
      void vscode.window.showWarningMessage(`Schrödinger: ${notInstance}`);
      return undefined;
    }
    return found;
  }

  /** Changes the record of the view's instance, on disk and here. */
  update(view: OpenView, change: Partial<InstanceRecord>): InstanceRecord {
    const record = { ...this.of(view)!, ...change };
    writeInstanceRecord(record);
    this.read.set(view.record.repository, record);
    return record;
  }

  private lookup(view: OpenView): InstanceRecord | null | UsageError {
    const workingCopy = view.record.repository;
    let found = this.read.get(workingCopy);
    if (found === undefined) {
      try {
        found = findInstanceRecord(workingCopy, this.stores) ?? null;
      } catch (error) {
        if (!(error instanceof UsageError)) throw error;
        found = error;
        this.report(error);
      }
      this.read.set(workingCopy, found);
    }
    return found;
  }

  private report(error: UsageError): void {
    this.log.error(error.message);
    void vscode.window.showErrorMessage(`Schrödinger: ${error.message}`);
  }
}
