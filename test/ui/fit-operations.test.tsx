// Every screen fits the terminal at 80×24, 60×24 and 80×12 (test/ui/fit-visits.tsx):
// an operation's variables, the last exchange, the operations of a backup and their forms.
import { OPERATIONS, fitEach } from './fit-visits.js';

fitEach(OPERATIONS);
