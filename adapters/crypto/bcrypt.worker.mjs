// Runs inside piscina worker threads: bcrypt's CPU work never touches the event loop that
// serves requests. Plain JavaScript so the threads need no TypeScript loader.
import bcrypt from 'bcryptjs';

export function hash({ input, cost }) {
  return bcrypt.hashSync(input, cost);
}

export function compare({ input, hash }) {
  return bcrypt.compareSync(input, hash);
}
