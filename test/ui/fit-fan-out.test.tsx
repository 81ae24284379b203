// Every screen fits the terminal at 80×24, 60×24 and 80×12 (test/ui/fit-visits.tsx):
// the count matrix and a merged list, which ask every unit of the 40 tenants.
import { FAN_OUT, fitEach } from './fit-visits.js';

fitEach(FAN_OUT);
