/** The service's notion of "today": UTC, or pinned by the TODAY setting. */
export interface Clock {
  today(): string;
}

export function createClock(pinnedToday?: string): Clock {
  if (pinnedToday) return { today: () => pinnedToday };
  return { today: () => new Date().toISOString().slice(0, 10) };
}
