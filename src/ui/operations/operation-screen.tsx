// One screen for trying an operation, mounted by the explorer on `x`: choose → form → preview →
// confirm (writes) → response → task. Each step is its own component; this holds the flow.
import { Box, Text, useStdin, useStdout } from 'ink';
import { useEffect, useState } from 'react';
import type { Catalog } from '../../api/catalog.js';
import { toDpxError, type DpxError } from '../../api/errors.js';
import { operationsFor, type AvailableOperation } from '../../api/operations/available.js';
import { loadBodySchema, type BodySchema } from '../../api/operations/body.js';
import { editInEditor, withTerminalSuspended, type TerminalControl } from '../../api/operations/editor.js';
import { createOperationForm, toRequestTarget, type OperationFormState } from '../../api/operations/form.js';
import { previewRequest } from '../../api/operations/preview.js';
import { confirmationLines, deleteConfirmationWord, isWriteMethod, needsTypedConfirmation } from '../../api/safety.js';
import { findFollowableTask, taskRequest, type FollowableTask } from '../../api/operations/task.js';
import type { PreparedRequest } from '../../api/operation.js';
import type { ApiResponse, Session } from '../../api/session.js';
import { Tinted } from '../components/theme.js';
import { OperationForm } from './operation-form.js';
import { OperationsList } from './operations-list.js';
import { RequestPreview } from './request-preview.js';
import { ResponseView } from './response-view.js';
import { TaskFollow } from './task-follow.js';
import { terminalControl } from './terminal-control.js';
import { WriteConfirm } from './write-confirm.js';

export interface OperationScreenProps {
  session: Session;
  catalog: Catalog;
  resource: string;
  version: string;
  /** The record open in the explorer, whose fields prefill the variables. */
  record?: Record<string, unknown>;
  /** Opens this operation's form straight away (the palette's "resource operation"). */
  operationId?: string;
  /** The profile's schema folder (settings.schemaDir). */
  schemaDir?: string;
  /** The name of the session's OU, when the explorer knows it. */
  ouName?: string;
  /** How to hand the terminal to $EDITOR; by default raw mode and the alternate screen are left and
   *  re-entered on ink's own streams, when they are a terminal. */
  terminal?: TerminalControl;
  env?: NodeJS.ProcessEnv;
  copy?: (text: string) => void;
  taskIntervalMs?: number;
  height?: number;
  width?: number;
  onOpenRecord?(resource: string, version: string, record: Record<string, unknown>): void;
  onClose(): void;
  isActive?: boolean;
}

type Step =
  | { kind: 'list' }
  | { kind: 'loading'; message: string }
  | { kind: 'form'; form: OperationFormState; schema?: BodySchema }
  | { kind: 'preview'; form: OperationFormState; schema?: BodySchema; request: PreparedRequest }
  | { kind: 'confirm'; form: OperationFormState; schema?: BodySchema; request: PreparedRequest }
  | { kind: 'response'; form: OperationFormState; schema?: BodySchema; response?: ApiResponse; error?: DpxError; followable?: FollowableTask }
  | { kind: 'task'; back: Step & { kind: 'response' }; request: PreparedRequest };

export function OperationScreen(props: OperationScreenProps): React.ReactElement {
  const { session, catalog } = props;
  const [step, setStep] = useState<Step>({ kind: 'list' });
  const [problem, setProblem] = useState<string | undefined>();
  const active = props.isActive ?? true;
  const { stdin } = useStdin();
  const { stdout } = useStdout();
  const operations = operationsFor(catalog, props.resource, props.version, props.record);

  const fail = (error: unknown, back: Step): void => {
    const dpx = toDpxError(error);
    setProblem(`${dpx.message}${dpx.hint ? ` — ${dpx.hint}` : ''}`);
    setStep(back);
  };

  const choose = (choice: AvailableOperation): void => {
    setProblem(undefined);
    setStep({ kind: 'loading', message: `opening ${choice.id}…` });
    loadBodySchema({ resource: choice.resource, version: choice.version, operationId: choice.id }, props.schemaDir).then(
      (schema) => {
        const form = createOperationForm({
          resource: choice.resource,
          version: choice.version,
          operation: choice.operation,
          prefill: choice.prefill,
          ou: session.ou ?? '',
          ...(schema ? { bodySchema: schema.schema } : {}),
          ...(props.record ? { record: { resource: props.resource, fields: props.record } } : {}),
        });
        setStep(schema ? { kind: 'form', form, schema } : { kind: 'form', form });
      },
      (error: unknown) => fail(error, { kind: 'list' }),
    );
  };

  const preview = (form: OperationFormState, schema?: BodySchema): void => {
    setProblem(undefined);
    session.prepare(toRequestTarget(form)).then(
      (prepared) => setStep({ kind: 'preview', form, ...(schema ? { schema } : {}), request: prepared }),
      (error: unknown) => fail(error, { kind: 'form', form, ...(schema ? { schema } : {}) }),
    );
  };

  const send = (form: OperationFormState, schema: BodySchema | undefined, request: PreparedRequest): void => {
    setStep({ kind: 'loading', message: `${request.method} ${request.url}…` });
    const base = { kind: 'response' as const, form, ...(schema ? { schema } : {}) };
    session.send(request).then(
      (response) => {
        const followable = findFollowableTask(response, catalog);
        setStep({ ...base, response, ...(followable ? { followable } : {}) });
      },
      (error: unknown) => setStep({ ...base, error: toDpxError(error) }),
    );
  };

  const follow = (back: Step & { kind: 'response' }): void => {
    if (!back.followable) return;
    taskRequest(session, back.followable).then(
      (request) => setStep({ kind: 'task', back, request }),
      (error: unknown) => fail(error, back),
    );
  };

  useEffect(() => {
    const chosen = props.operationId ? operations.find((op) => op.id === props.operationId && !op.related) : undefined;
    if (chosen) choose(chosen);
    // Only on mount: the explorer mounts a new screen for every operation it opens.
  }, []);

  const terminal = props.terminal ?? (stdout.isTTY ? terminalControl(stdin, stdout) : undefined);
  const editBody = terminal ? (text: string) => withTerminalSuspended(terminal, () => editInEditor(text, props.env ?? process.env)) : undefined;

  let body: React.ReactElement;
  switch (step.kind) {
    case 'list':
      body = (
        <OperationsList
          resource={props.resource}
          version={props.version}
          operations={operations}
          hasRecord={props.record !== undefined}
          readOnly={session.readOnly}
          {...(props.height ? { height: props.height - 4 } : {})}
          {...(props.width ? { width: props.width } : {})}
          onChoose={choose}
          onCancel={props.onClose}
          isActive={active}
        />
      );
      break;
    case 'loading':
      body = <Text dimColor>{step.message}</Text>;
      break;
    case 'form':
      body = (
        <OperationForm
          initial={step.form}
          baseUrl={session.baseUrl}
          {...(step.schema ? { bodySchema: step.schema } : {})}
          readOnly={session.readOnly}
          {...(editBody ? { editBody } : {})}
          onSubmit={(form) => preview(form, step.schema)}
          onCancel={() => setStep({ kind: 'list' })}
          isActive={active}
        />
      );
      break;
    case 'preview': {
      const ou = step.request.ou;
      body = (
        <RequestPreview
          preview={previewRequest(step.request, { authenticated: true, ...(props.ouName && ou === session.ou ? { ouName: props.ouName } : {}) })}
          readOnly={session.readOnly}
          {...(props.copy ? { copy: props.copy } : {})}
          onSend={() => (isWriteMethod(step.request.method) ? setStep({ ...step, kind: 'confirm' }) : send(step.form, step.schema, step.request))}
          onBack={() => setStep({ kind: 'form', form: step.form, ...(step.schema ? { schema: step.schema } : {}) })}
          isActive={active}
        />
      );
      break;
    }
    case 'confirm': {
      const ou = step.request.ou;
      // The open record is the target only of its own resource's operations, not of a related one.
      const target = step.form.resource === props.resource ? props.record : undefined;
      const expected = needsTypedConfirmation(step.request.method) ? deleteConfirmationWord(step.request, target) : undefined;
      body = (
        <WriteConfirm
          method={step.request.method}
          lines={confirmationLines(step.request, { baseUrl: session.baseUrl, ...(props.ouName && ou === session.ou ? { ouName: props.ouName } : {}) })}
          {...(expected !== undefined ? { expectedWord: expected } : {})}
          onConfirm={() => send(step.form, step.schema, step.request)}
          onCancel={() => setStep({ ...step, kind: 'preview' })}
          isActive={active}
        />
      );
      break;
    }
    case 'response':
      body = (
        <ResponseView
          {...(step.response ? { response: step.response } : {})}
          {...(step.error ? { error: step.error } : {})}
          {...(step.followable ? { followable: step.followable } : {})}
          {...(props.height ? { height: props.height - (problem ? 1 : 0) } : {})}
          {...(props.width ? { width: props.width } : {})}
          onFollow={() => follow(step)}
          onBack={() => setStep({ kind: 'form', form: step.form, ...(step.schema ? { schema: step.schema } : {}) })}
          isActive={active}
        />
      );
      break;
    case 'task':
      body = (
        <TaskFollow
          session={session}
          request={step.request}
          {...(props.taskIntervalMs !== undefined ? { intervalMs: props.taskIntervalMs } : {})}
          {...(props.onOpenRecord ? { onOpenResult: (record: Record<string, unknown>) => props.onOpenRecord!(step.request.resource, step.request.version, record) } : {})}
          onBack={() => setStep(step.back)}
          isActive={active}
        />
      );
      break;
  }
  // Clipped to the rows the explorer gives it, so a long body or many headers never push the frame
  // past the terminal; the problem line goes first so clipping never hides it.
  return (
    <Box flexDirection="column" overflow="hidden" {...(props.height ? { height: props.height } : {})}>
      <Box flexDirection="column" flexShrink={0}>
        {problem ? <Tinted tone="bad" wrap="truncate">{problem}</Tinted> : null}
        {body}
      </Box>
    </Box>
  );
}
