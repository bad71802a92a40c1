// A TCP proxy in front of the AWS emulator that cuts off some of its traffic on demand, as an outage would, while
// moto itself (which keeps everything in memory) runs on: its pools, users and objects are there when the cut ends.
// Each connection is judged by its first request (every SDK client keeps its own connections, so a connection
// carries one service's requests); a cut drops every connection open, so kept-alive ones are judged again.
import { connect, createServer, type Socket } from 'node:net';

/**
 * `silent`: the connection is taken and never answered (the caller's time limits must end it); `hang-up`: closed at
 * its first request; `lose-answer`: the request reaches the service, which does the work, and the connection is
 * closed as its answer comes back.
 */
export type Fault = 'silent' | 'hang-up' | 'lose-answer';

/** Which requests a cut takes: by the first bytes of the connection (request line and headers). */
export const AWS_TRAFFIC = {
  /** The user pool's calls and its signing keys. */
  userPool: (head: string) => /x-amz-target: *AWSCognitoIdentityProviderService\./i.test(head) || /^GET \/[\w-]+_\w+\/\.well-known\/jwks\.json /.test(head),
  /** One call of the user pool. */
  userPoolCall: (operation: string) => (head: string) => new RegExp(`x-amz-target: *AWSCognitoIdentityProviderService\\.${operation}\\r?\\n`, 'i').test(head),
  /** The bucket's requests (path-style, as the server and the browser send them). */
  bucket: (bucket: string) => (head: string) => new RegExp(`^[A-Z]+ /${bucket}[/? ]`).test(head),
};

export interface CutOffProxy {
  endpoint: string;
  /** Cuts off what `match` takes with `fault` from now on (open connections are dropped); answers the undo. */
  cut(match: (head: string) => boolean, fault: Fault): () => void;
  /** Connections that `match` took while cut off. */
  cutConnections(): number;
  close(): Promise<void>;
}

export async function cutOffProxy(target: string): Promise<CutOffProxy> {
  const upstream = new URL(target);
  const cuts: { match: (head: string) => boolean; fault: Fault }[] = [];
  const open = new Set<Socket>();
  let cutConnections = 0;
  const track = (socket: Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
    return socket;
  };
  const dropAll = () => {
    for (const socket of open) socket.destroy();
  };

  const server = createServer((client) => {
    track(client);
    client.once('data', (first: Buffer) => {
      const head = first.toString('latin1', 0, Math.min(first.length, 8192));
      const cutBy = cuts.find((cut) => cut.match(head));
      if (cutBy) cutConnections += 1;
      if (cutBy?.fault === 'silent') return void client.pause();
      if (cutBy?.fault === 'hang-up') return void client.destroy();
      const service = track(connect(Number(upstream.port), upstream.hostname));
      service.write(first);
      client.pipe(service);
      if (cutBy?.fault === 'lose-answer') {
        service.once('data', () => {
          client.destroy();
          service.destroy();
        });
      } else {
        service.pipe(client);
      }
      service.on('close', () => client.destroy());
      client.on('close', () => service.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };

  return {
    endpoint: `http://127.0.0.1:${port}`,
    cut(match, fault) {
      const entry = { match, fault };
      cuts.push(entry);
      dropAll();
      return () => {
        cuts.splice(cuts.indexOf(entry), 1);
        // The connections it held are of no use to anyone now.
        dropAll();
      };
    },
    cutConnections: () => cutConnections,
    close: () =>
      new Promise<void>((resolve) => {
        dropAll();
        server.close(() => resolve());
      }),
  };
}
