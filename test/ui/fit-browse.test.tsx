// Every screen fits the terminal at 80×24, 60×24 and 80×12 (test/ui/fit-visits.tsx):
// the catalog, lists, records and what opens from them.
import { BROWSE, fitEach } from './fit-visits.js';

fitEach(BROWSE);
