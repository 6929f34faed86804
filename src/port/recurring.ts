/**
 * What recurring streams read of the store (domain/recurring/): two small reads in domain types,
 * so that the rules stay in the domain and an engine sends only what they need. Each reads the
 * user's counted rows in the scope (spending rules 1, 3 and 4, applied by the engine as every
 * read does), dated up to the scope's last day, whatever their age.
 */
import type {
  RawKeyDays,
  RecurringRow,
  RecurringScope,
  StreamTexts,
} from '../domain/recurring/model.ts';

export interface RecurringReads {
  /**
   * Per direction, raw key (the merchant name; the description too when there is none, null or
   * empty) and platform flag, the distinct days of the counted rows, in any order.
   */
  recurringKeyDays(scope: RecurringScope): Promise<RawKeyDays[]>;
  /**
   * The counted rows whose merchant name is one of `texts.merchantNames`, or which have none
   * (null or empty) and whose description is one of `texts.descriptions`, in any order.
   */
  recurringRows(scope: RecurringScope, texts: StreamTexts): Promise<RecurringRow[]>;
}
