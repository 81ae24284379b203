// A small spinner that runs only while something is loading.
import { useEffect, useState } from 'react';
import { Tinted } from './theme.js';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];

export function Spinner({ label }: { label: string }) {
  const [frame, setFrame] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setFrame((f) => (f + 1) % FRAMES.length), 100);
    return () => clearInterval(timer);
  }, []);
  return (
    <Tinted tone="info">
      {FRAMES[frame]} {label}…
    </Tinted>
  );
}
