/**
 * Pool family indices used by the pool lookup table: a leaf module, so the model and the session lifecycle share them
 * without importing each other.
 */

export const FAMILY_V4 = 0;
export const FAMILY_WAN = 1;
export const FAMILY_PD = 2;
