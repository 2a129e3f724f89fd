declare module 'dumb-passwords' {
  const m: { check(password: string): boolean };
  export default m;
}
