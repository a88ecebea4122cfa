/** The only source of "now" for core and for adapters that decide expiry. */
export interface Clock {
  now(): Date;
}

export const addSeconds = (date: Date, seconds: number): Date => new Date(date.getTime() + seconds * 1000);
