// What the code logs through: Fastify's logger (pino) in the server, a plain object in scripts and
// tests. A part that only informs and warns asks for Pick<Logger, 'info' | 'warn'>.
export interface Logger {
  info(obj: object | string, msg?: string): void;
  warn(obj: object | string, msg?: string): void;
  error(obj: object | string, msg?: string): void;
}
