/** The only source of "now" for core and for adapters that decide expiry. */
export interface Clock {
  now(): Date;
}
