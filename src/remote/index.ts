// The remote layer's public surface, for `rawp serve` and the editor's "Share session":
//
//   const server = await RemoteServer.start({ registry, token });   // loopback, any free port
//   server.share(session_id);                                        // a local session becomes visible
//   copy(server.attachUrl(session_id)); copy(server.browserUrl({ session_id, token }));
//   server.onMastersChanged(({ total }) => statusBar.text = `${total} masters`);
//   server.unshare(session_id);                                      // its masters are disconnected
//   await server.close();
export { RemoteServer, tlsFromFiles, type RemoteServerOptions, type MastersChange } from './server';
export { generateToken, tokenProblem, FailureThrottle, TokenVerifier, type ThrottleOptions } from './auth';
export { CLOSE, DPS_SUBPROTOCOL, browserSubprotocols, streamPath, healthBody, TOKEN_RULE } from './controlPlane';
export { type CreateSessionRequest } from './httpApi';
