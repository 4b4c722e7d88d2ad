import type { ProtocolRoutes } from '../http/protocol-routes.ts';

/** Routes of this domain whose shape a protocol fixes (not derived from the ops table); filled as it lands. */
export const piiRoutes: ProtocolRoutes = async () => {};
