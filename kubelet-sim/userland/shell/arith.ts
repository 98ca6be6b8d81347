/** evaluateArithmetic computes `$(( … ))`: integers, variables, + - * / %, comparisons, && || !
 * and parentheses, as a POSIX shell does (division truncates toward zero). */
export function evaluateArithmetic(expression: string, lookup: (name: string) => string | undefined): number {
  const tokens = expression.match(/\d+|[A-Za-z_][A-Za-z0-9_]*|&&|\|\||[<>=!]=|<<|>>|[-+*/%()<>!]|\S/g) ?? [];
  let pos = 0;
  const peek = () => tokens[pos];
  const fail = (): never => {
    throw new Error(`arithmetic syntax error`);
  };
  const BINARY: Array<Record<string, (a: number, b: number) => number>> = [
    { '||': (a, b) => Number(a !== 0 || b !== 0) },
    { '&&': (a, b) => Number(a !== 0 && b !== 0) },
    { '==': (a, b) => Number(a === b), '!=': (a, b) => Number(a !== b) },
    { '<': (a, b) => Number(a < b), '>': (a, b) => Number(a > b), '<=': (a, b) => Number(a <= b), '>=': (a, b) => Number(a >= b) },
    { '+': (a, b) => a + b, '-': (a, b) => a - b },
    {
      '*': (a, b) => a * b,
      '/': (a, b) => (b === 0 ? fail() : Math.trunc(a / b)),
      '%': (a, b) => (b === 0 ? fail() : a % b),
    },
  ];
  const unary = (): number => {
    const token = tokens[pos++];
    if (token === undefined) return fail();
    if (token === '-') return -unary();
    if (token === '+') return unary();
    if (token === '!') return Number(unary() === 0);
    if (token === '(') {
      const value = binary(0);
      if (tokens[pos++] !== ')') fail();
      return value;
    }
    if (/^\d+$/.test(token)) return Number(token);
    if (/^[A-Za-z_]/.test(token)) return Number.parseInt(lookup(token) ?? '0', 10) || 0;
    return fail();
  };
  const binary = (level: number): number => {
    if (level >= BINARY.length) return unary();
    let left = binary(level + 1);
    for (;;) {
      const op = BINARY[level]![peek() ?? ''];
      if (!op) return left;
      pos++;
      left = op(left, binary(level + 1));
    }
  };
  if (tokens.length === 0) return 0;
  const value = binary(0);
  if (pos !== tokens.length) fail();
  return value;
}
