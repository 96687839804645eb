/**
 * The calendar day of an instant in Asia/Seoul, `YYYY-MM-DD`: the platform's business day (dates
 * such as a quotation's validUntil are Seoul days, as the list filters are).
 */
const seoulDayFormat = new Intl.DateTimeFormat('en-CA', {
  timeZone: 'Asia/Seoul',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  calendar: 'gregory',
  numberingSystem: 'latn',
});

export const seoulDay = (at: Date): string => seoulDayFormat.format(at);
