/** The parts of the `yggdrasil` package (PrismarineJS, no types of its own) the tests use. */
declare module 'yggdrasil' {
  // Answers are the server's JSON as the client hands it over.
  type Answer = Promise<any>;
  interface AuthClient {
    auth(options: {
      user: string;
      pass: string;
      token?: string | null;
      requestUser?: boolean;
    }): Answer;
    refresh(
      accessToken: string,
      clientToken: string,
      requestUser?: boolean,
    ): Answer;
    validate(accessToken: string): Answer;
    invalidate(accessToken: string, clientToken: string): Answer;
    signout(username: string, password: string): Answer;
  }
  interface SessionClient {
    join(
      accessToken: string,
      selectedProfile: string,
      serverId: string,
      sharedSecret: Buffer,
      serverKey: Buffer,
    ): Answer;
    hasJoined(
      username: string,
      serverId: string,
      sharedSecret: Buffer,
      serverKey: Buffer,
    ): Answer;
  }
  interface Loader {
    (options?: { host?: string }): AuthClient;
    server(options?: { host?: string }): SessionClient;
  }
  const yggdrasil: Loader;
  export default yggdrasil;
}
