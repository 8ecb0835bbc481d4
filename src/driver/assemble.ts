/**
 * The driver's parts, built in the order they need each other: the session first, the handshake
 * on it, the lists and subscriptions behind the handshake, the two eras and the choice between
 * them, then the session told who takes a hand in its requests (interceptors) and who hears what
 * comes in. No part reaches one built after it; what the session reports later goes to parts that
 * exist by then.
 */
import type { ForeignAnswers } from "./foreign-answers.js";
import { LATEST_PROTOCOL_VERSION } from "../protocol/versions.js";
import { callFailures } from "./call-failures.js";
import { CallHandlers } from "./call-handlers.js";
import { DiscoverNegotiation, negotiationMode } from "./discover-negotiation.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { EraChoice, SpokenVersion } from "./era.js";
import { HandshakeGate } from "./handshake-gate.js";
import { NotificationInbox } from "./inbox.js";
import { metaFrom } from "./interceptors.js";
import { LegacyEra } from "./legacy-era.js";
import { ConnectionLifetime } from "./lifetime.js";
import { ListCache } from "./list-cache.js";
import { ListChangeFollower } from "./list-changes.js";
import { ModernEra } from "./modern-era.js";
import type { ModernHttpFetch } from "./modern-http.js";
import { InitializeNegotiation, ResumedNegotiation, type Negotiation } from "./negotiation.js";
import { DriverObservation } from "./observed-session.js";
import { DEFAULT_MAX_INPUT_ROUNDS, type DriverOptions } from "./options.js";
import { ServerProcess } from "./server-process.js";
import { ServerRequestAnswers } from "./server-requests.js";
import { RpcChannel } from "./rpc-channel.js";
import { Subscription, type ListenFilter } from "./subscription.js";
import { TraceMeta } from "./trace-meta.js";
import { DriverTraffic } from "./traffic.js";
import { MessageTap } from "./message-tap.js";
import { traceDriver } from "./driver-trace.js";
import { connectionRefusal, sdkTransportErrors, type ErrorClassifier } from "./transport-errors.js";
import type { StdioProcessTransport } from "./stdio-process.js";

/** How the driver reaches its server. */
export interface DriverConnection {
  kind: "stdio" | "http" | "attached";
  /** The command or URL, for messages. */
  target: string;
  transport: Transport | PromiseLike<Transport>;
  /** The spawned server, for `kind: "stdio"`. */
  process?: StdioProcessTransport;
  /** Closes the wire (ends an HTTP session). Without it the transport's `close()` is called. */
  closeWire?: () => Promise<void>;
  /** Which of the transport's errors mean the server broke the protocol (default: the SDK transports'). */
  classifyError?: ErrorClassifier;
  /** Answers that were neither JSON nor an event stream, by request id (mcpConnect's fetch notes them). */
  foreignAnswers?: ForeignAnswers;
  /** Streamable HTTP: the per-request headers and streams of 2026-07-28 (mcpConnect). */
  modernHttp?: ModernHttpFetch;
  /** Streamable HTTP: the connection goes on a session begun elsewhere (its initialize is done). */
  resumesSession?: boolean;
  /** The message tap, when the wire's own parts feed it too (mcpConnect's fetch); else one is made. */
  tap?: MessageTap;
}

export interface DriverParts {
  readonly channel: RpcChannel;
  readonly negotiation: Negotiation;
  /** The `server/discover` handshake, unless the options ask for `legacy`. */
  readonly discovery: DiscoverNegotiation | undefined;
  readonly gate: HandshakeGate;
  readonly eras: EraChoice;
  readonly spoken: SpokenVersion;
  /** Streamable HTTP's per-request headers and streams (mcpConnect only). */
  readonly http: ModernHttpFetch | undefined;
  readonly calls: CallHandlers;
  readonly lists: ListCache;
  /** 2026-07-28: the subscription that brings list_changed (undefined with `followListChanges: false`). */
  readonly listChanges: ListChangeFollower | undefined;
  readonly inbox: NotificationInbox;
  readonly answers: ServerRequestAnswers;
  readonly lifetime: ConnectionLifetime;
  readonly failures: ReturnType<typeof callFailures>;
  readonly process: ServerProcess;
  readonly traffic: DriverTraffic;
  /** Opens one `subscriptions/listen`, its request sent at once (once the handshake is done). */
  subscribe(filter: ListenFilter, acknowledgeTimeoutMs: number): Subscription;
}

/** `closing` aborts when the driver closes: what waits on the caller between input rounds stops then. */
export function assembleDriver(connection: DriverConnection, options: DriverOptions, requestTimeout: number, closing: AbortSignal): DriverParts {
  const spawned = connection.process;
  const processContext = () => spawned?.context();
  const answers = new ServerRequestAnswers(options);
  const inbox = new NotificationInbox(options.maxRecords ?? 10_000, requestTimeout, processContext);
  const traceMeta = options.traceContext === false ? undefined : new TraceMeta();
  // The first request waits for the OpenTelemetry API's import, so it carries trace context too.
  const transport = traceMeta === undefined ? connection.transport : traceMeta.loaded.then(() => connection.transport);
  const classifyError = connection.classifyError ?? sdkTransportErrors;
  // A refused connection over HTTP means nothing listens at the URL: said first, in plain words.
  const refusedAt = (error: unknown) => (connection.kind === "http" && connectionRefusal(error) !== undefined ? connection.target : undefined);
  const tap = connection.tap ?? new MessageTap(connection.kind);
  const channel = new RpcChannel(transport, {
    requestTimeout,
    strict: options.strict ?? true,
    processContext,
    classifyError,
    refusedAt,
    ...(connection.foreignAnswers !== undefined && { foreignContentType: (id: number) => connection.foreignAnswers!.take(id) }),
    tap,
    ...(options.maxRecords === undefined ? {} : { maxRecords: options.maxRecords }),
  });
  tap.bind({ sessionId: () => channel.sessionId, protocolVersion: () => channel.protocolVersion });
  const trace = traceDriver(tap, options.trace, connection.target);

  const implied = (version: string) => answers.impliedCapabilities(version);
  const mode = negotiationMode(options);
  const initialize = new InitializeNegotiation(channel, options, implied, processContext, mode === "legacy");
  // A session begun elsewhere (mcpConnect's sessionId) is a legacy one whose initialize is done.
  const resumedVersion = connection.resumesSession ? (options.protocolVersion ?? LATEST_PROTOCOL_VERSION) : undefined;
  const discovery = mode === "legacy" || resumedVersion !== undefined ? undefined : new DiscoverNegotiation(channel, options, mode, implied, processContext, initialize);
  const negotiation = resumedVersion !== undefined ? new ResumedNegotiation(channel, resumedVersion, implied(resumedVersion)) : (discovery ?? initialize);
  const gate = new HandshakeGate(channel, negotiation);

  const lists = new ListCache(gate.request, processContext);
  const subscribe = (filter: ListenFilter, acknowledgeTimeoutMs: number) =>
    new Subscription(
      (listener) => inbox.listen("*", listener),
      (signal, onId) => gate.request("subscriptions/listen", { notifications: filter }, { label: "subscriptions/listen", signal, onId, timeoutMs: Infinity }),
      acknowledgeTimeoutMs,
    );
  const listChanges =
    options.followListChanges === false
      ? undefined
      : new ListChangeFollower(
          (filter) => subscribe(filter, requestTimeout),
          () => lists.noticeAll(),
        );
  const http = connection.modernHttp;
  const spoken = new SpokenVersion(negotiation);
  const calls = new CallHandlers(channel);
  const legacy = new LegacyEra(channel, answers, calls);
  const maxInputRounds = options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS;
  const modern = discovery === undefined ? undefined : new ModernEra({ channel, discovery, spoken, answers, lists, listChanges, http, maxInputRounds, requestTimeout, closing, processContext });
  const eras = new EraChoice(negotiation, legacy, modern);
  lists.followChangesWith(() => eras.current().beforeListFetch());

  const observation = observationOf(connection, options, channel);
  // The order of `_meta`: the era's fields, then trace context (the caller's own win over both).
  channel.use(metaFrom(() => eras.current().requestMeta()));
  if (traceMeta !== undefined) channel.use(metaFrom(() => traceMeta.current()));
  channel.use({ cancel: (id, reason) => eras.current().cancel(id, reason) });
  if (observation !== undefined) channel.use(observation);
  if (http !== undefined) {
    channel.use(http);
    http.onStreamEnd = (id, why) => channel.answerLost(id, why);
  }
  channel.answerServerRequestsWith((method, params, context) => eras.current().answerServerRequest(method, params, context));
  channel.onNotification((notification) => {
    lists.notice(notification.method);
    inbox.receive(notification);
  });

  const lifetime = new ConnectionLifetime(channel, connection.target, spawned, connection.closeWire, () => negotiation.result !== undefined, observation);
  channel.explainWireLoss((method, id, label) => lifetime.closedError(method, id, label));
  channel.onWireEnd((error) => {
    if (error === undefined) {
      lifetime.serverEnded();
      inbox.serverGone(connection.kind === "stdio" ? "its process exited or closed its stdout" : "its connection closed");
      return;
    }
    // Over HTTP there is no connection to close: a refused connection is how a gone server shows.
    const refusal = connection.kind === "http" ? connectionRefusal(error) : undefined;
    if (refusal === undefined) return;
    lifetime.serverEnded(refusal);
    inbox.serverGone(`its URL refused a connection: ${refusal}`);
  });
  if (observation !== undefined) {
    observation.willStart();
    void channel.startFailure().then((failure) => observation.started(failure));
  }
  return {
    channel,
    negotiation,
    discovery,
    gate,
    eras,
    spoken,
    http,
    calls,
    lists,
    listChanges,
    inbox,
    answers,
    lifetime,
    failures: callFailures(processContext),
    process: new ServerProcess(spawned, connection),
    traffic: new DriverTraffic(channel, processContext, tap, trace),
    subscribe,
  };
}

/** The driver's observers, when it has any. */
function observationOf(connection: DriverConnection, options: DriverOptions, channel: RpcChannel): DriverObservation | undefined {
  if (options.observers === undefined || options.observers.length === 0) return undefined;
  return new DriverObservation(options.observers, options.observe, {
    wire: connection.kind,
    target: connection.target,
    sessionId: () => channel.sessionId,
    protocolVersion: () => channel.protocolVersion,
  });
}
