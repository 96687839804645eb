/**
 * The ids of DESIGN S7, one definition each: a prefixed id's prefix, the database sequence that
 * numbers it and the shape an id a caller sends must have (anything else is not found, without
 * a query); the plain serial ids of agencies, partners and advertisers.
 */
export interface PrefixedId {
  prefix: string;
  sequence: string;
  pattern: RegExp;
}

export const SETTLEMENT_ID: PrefixedId = {
  prefix: 'SET',
  sequence: 'settlement_number_seq',
  pattern: /^SET[1-9]\d{0,17}$/,
};

export const CAMPAIGN_ID: PrefixedId = {
  prefix: 'CAM',
  sequence: 'campaign_number_seq',
  pattern: /^CAM[1-9]\d{0,16}$/,
};

export const QUOTATION_ID: PrefixedId = {
  prefix: 'QUO',
  sequence: 'quotation_number_seq',
  pattern: /^QUO[1-9]\d{0,17}$/,
};

/** A bigint serial id (agencies, partners, advertisers), as its decimal text. */
export const SERIAL_ID = /^[1-9]\d{0,17}$/;
