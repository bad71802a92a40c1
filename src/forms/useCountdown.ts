import { useEffect, useState } from 'react';

/** Seconds left until `until` (epoch ms), updated every second; 0 once it has passed. */
export function useCountdown(until: number | null): number {
  const [clock, setClock] = useState(() => ({ until, now: Date.now() }));
  // A new deadline is counted from the clock as it is now, in the render that brings it: a dialog opening with it
  // must not show (nor have announced) the seconds left as they were when the component mounted. (React's
  // pattern for state that follows a prop; reading the clock is what a countdown is for.)
  if (clock.until !== until) {
    // eslint-disable-next-line react-hooks/purity -- see above
    setClock({ until, now: Date.now() });
  }
  useEffect(() => {
    if (until === null) return undefined;
    const timer = setInterval(() => {
      const now = Date.now();
      setClock({ until, now });
      if (now >= until) clearInterval(timer);
    }, 1000);
    return () => clearInterval(timer);
  }, [until]);
  return until === null ? 0 : Math.max(0, Math.ceil((until - clock.now) / 1000));
}
