import { PinoPretty } from 'pino-pretty';

/**
 * pino-pretty as a plain stream in this thread (not a transport worker): a terminal log is
 * for development and watching a single instance, where simplicity beats throughput.
 */
export function prettyStream(
  destination: NodeJS.WritableStream,
): NodeJS.WritableStream {
  return PinoPretty({
    destination: destination as never,
    colorize: (destination as { isTTY?: boolean }).isTTY === true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: 'pid,hostname',
    singleLine: true,
    sync: true,
  }) as unknown as NodeJS.WritableStream;
}
