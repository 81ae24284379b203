// One step of a UI test inside React's act(): what it renders is flushed before the step resolves.
import { act } from 'react';

type ActEnvironment = { IS_REACT_ACT_ENVIRONMENT?: boolean };

export async function step<T>(run: () => T | Promise<T>): Promise<T> {
  const environment = globalThis as ActEnvironment;
  environment.IS_REACT_ACT_ENVIRONMENT = true;
  try {
    return await act(async () => run());
  } finally {
    environment.IS_REACT_ACT_ENVIRONMENT = false;
  }
}
