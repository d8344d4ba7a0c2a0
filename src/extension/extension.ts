/** Activation: the shared host, then the features, one registration each; each disposes what it made. */
import type * as vscode from 'vscode';
import { registerViewFileSystem } from './fs-provider';
import { createHost } from './host';
import { registerLevel1 } from './level1-command';
import { registerNavigation } from './navigation';
import { registerOpenView } from './open-view';
import { registerReview } from './review-panel';
import { registerReviewerMode } from './reviewer';
import { registerFindInView } from './search';
import { Solving } from './solving';
import { registerViewStatus } from './status';
import { registerTerminals } from './terminal';
import type { ViewRegistry } from './views';
import { undoPending } from '../core/common/leftovers';

export function activate(context: vscode.ExtensionContext): { views: ViewRegistry } {
  const own = <Feature extends vscode.Disposable>(feature: Feature): Feature => (context.subscriptions.push(feature), feature);
  const host = own(createHost(context));
  const solving = own(new Solving(host));
  own(registerViewFileSystem(host));
  own(registerViewStatus(host, solving.records));
  own(registerNavigation(host, solving.sessions));
  const findInView = own(registerFindInView(host, solving.sessions));
  own(registerReviewerMode(host, findInView));
  own(registerTerminals(host, solving));
  own(registerReview(host));
  own(registerLevel1(host));
  own(registerOpenView(host)); // last: it may open a view, which reloads the window

  // Moving the built-in Search opens its new container: the window's own start comes after.
  void findInView.placed.then(() => solving.start());
  const [view] = host.views.inWorkspace();
  if (view) host.log.info(`disguised view ${view.record.rootName} ready in ${view.record.mode} mode`);
  return { views: host.views };
}

/** The window closes or reloads: the tests, containers and scratch folders of gates still running go with it. */
export function deactivate(): void {
  undoPending();
}
