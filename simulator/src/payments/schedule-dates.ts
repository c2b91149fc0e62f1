/** The dates of a payment authorization's schedule (Schedule in the document). */
import { addDays } from './cancel-cutoff.js';
import type { Schedule } from './payment-records.js';

const MONTHS: Record<Exclude<Schedule['frequency'], 'WEEKLY'>, number> = {
  MONTHLY: 1,
  QUARTERLY: 3,
  SEMIANNUALLY: 6,
  YEARLY: 12,
};

const pad2 = (n: number) => String(n).padStart(2, '0');

/**
 * The date of occurrence `n` (0: `start_date`). Month-based steps keep the start's day of the month,
 * clamped to the month's last day (choice: a schedule starting on the 31st charges on 30 April and on
 * 28 or 29 February, and on the 31st again where the month has one).
 */
export function occurrenceDate(schedule: Pick<Schedule, 'frequency' | 'start_date'>, n: number): string {
  if (schedule.frequency === 'WEEKLY') return addDays(schedule.start_date, 7 * n);
  const [year = 0, month = 1, day = 1] = schedule.start_date.split('-').map(Number);
  const months = month - 1 + n * MONTHS[schedule.frequency];
  const targetYear = year + Math.floor(months / 12);
  const targetMonth = months % 12;
  const lastDay = new Date(Date.UTC(targetYear, targetMonth + 1, 0)).getUTCDate();
  return `${targetYear}-${pad2(targetMonth + 1)}-${pad2(Math.min(day, lastDay))}`;
}

/** Whether occurrence `n` exists: within `occurrences` and not after `end_date` (neither: no end). */
export function hasOccurrence(schedule: Schedule, n: number): boolean {
  if (schedule.occurrences !== null && n >= schedule.occurrences) return false;
  return schedule.end_date === null || occurrenceDate(schedule, n) <= schedule.end_date;
}
