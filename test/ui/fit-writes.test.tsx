// Every screen fits the terminal at 80×24, 60×24 and 80×12 (test/ui/fit-visits.tsx):
// a write previewed, copied, confirmed and sent, and its response.
import { WRITES, fitEach } from './fit-visits.js';

fitEach(WRITES);
