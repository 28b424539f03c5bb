/** A replica behind the proxy: its name (set on the 502 of a request it lost) and its `/mcp` URL. */
export interface ProxiedReplica {
  readonly name: string;
  readonly url: string;
}

/** The load run's round-robin proxy on a free loopback port in front of `replicas`. */
export function startProxy(replicas: readonly ProxiedReplica[]): Promise<{
  /** The proxy's `http://127.0.0.1:<port>/mcp`. */
  readonly url: string;
  stop(): Promise<void>;
}>;
