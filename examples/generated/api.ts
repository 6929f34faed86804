export interface paths {
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Liveness probe */
        get: operations["getLiveness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * Liveness probe
         * @description As GET, with the same status and headers, without a body.
         */
        head: operations["headLiveness"];
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Readiness probe: the store answers a query */
        get: operations["getReadiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        /**
         * Readiness probe: the store answers a query
         * @description As GET, with the same status and headers, without a body.
         */
        head: operations["headReadiness"];
        patch?: never;
        trace?: never;
    };
    "/v1/user": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * User profile
         * @description The name, email and phone of the token's owner.
         */
        get: operations["getUserProfile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/users/spending": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Spending analysis
         * @description Categorized spending of the token's user over a window, grouped by category, merchant or calendar period, with summary figures and whole-window cash flow.
         */
        get: operations["getSpending"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/spending": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Spending analysis (legacy)
         * @deprecated
         * @description Deprecated: use /v2/users/spending. Same query and body; total_income, total_expenses and savings_rate are always null.
         */
        get: operations["getSpendingLegacy"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/users/transactions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List transactions
         * @description Every transaction of the user, newest first: hidden ones, internal transfers and investment-account activity included and flagged. Pagination turns on when `page` or `page_size` is passed; without either, every matching transaction is returned and `next`/`previous` are null. A page past the end answers 200 with an empty list. Filters combine (all must hold) and are kept in `next`/`previous`; `daily_totals` and `count` cover the matching transactions. The same list comes as a file of the transactions alone, one row each, when `format` (which wins) or `Accept` asks for it: CSV (`text/csv`), NDJSON (`application/x-ndjson`) or Parquet (`application/vnd.apache.parquet`), with `Content-Disposition: attachment`; an `Accept` that admits none of the four media types answers 406. A file without pagination is streamed like the JSON list, and cut short (never shortened) if the store fails midway.
         */
        get: operations["listTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/users/transactions/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Sync transactions
         * @description What changed in the user’s transactions since a cursor: `added`, `modified` (as the list shows them) and `removed` (ids), the net change between the data the cursor stands at and the current data, `count` changes a page, by transaction id. Without a cursor every current transaction is added. While `has_more` is true, ask again with `next_cursor`: every page of one sync reads the data it started on, even if newer data is published meanwhile. Once `has_more` is false, keep `next_cursor`: the next sync starts there. Following the cursors from none to the end reproduces the unpaginated list exactly; syncing again from the last cursor yields exactly what changed since. A cursor the store’s history no longer leads to answers 410: sync again without one. That is a cursor older than the change log the store keeps, one issued before the store was rebuilt in full, and one issued after the point a store was restored to (a restored copy, a rolled-back sequence of change sets: what the client holds may be gone). A cursor that is not one of ours (edited, truncated, another user’s) answers 422. Each page names the generation it was read at in `X-Store-Generation`: while a sync is under way, the one it started on.
         */
        get: operations["syncTransactions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/users/transactions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One transaction
         * @description One transaction of the user by its `id`. 404 when the user has none with that id, whether or not another user has: the answer never says which.
         */
        get: operations["getTransaction"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/links": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List links
         * @description The user’s connected institutions and payroll providers, each with its accounts’ ids. Without `page` or `page_size` every link is returned and `next`/`previous` are null; with either, the list is paginated as transactions are.
         */
        get: operations["listLinks"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/accounts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List accounts
         * @description Every account of the user (its link, type, subtype, currency) with its latest balance snapshot, or `balance: null` when it has none.
         */
        get: operations["listAccounts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/categories": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List categories
         * @description The category taxonomy every transaction belongs to: the valid values of the `categories` filters (matched case-insensitively).
         */
        get: operations["listCategories"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/balances": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Current balances and net worth
         * @description Each account’s latest balance snapshot (accounts without one are listed with nulls), and the totals: assets (depository, investment, other), liabilities (credit, loan: the amount owed) and net worth = assets − liabilities.
         */
        get: operations["getBalances"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/balance-history": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Balance history
         * @description End-of-period balances per account and net worth over a window. A period’s balance is the account’s latest snapshot on or before the period’s (clipped) end date. Window: end_date omitted or in the future -> today; start_date omitted -> the same date a year before end_date plus one day; start_date after end_date -> 422.
         */
        get: operations["getBalanceHistory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/income": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Income
         * @description Payroll income per employer (pay frequency, last and next expected pay date, gross and net totals) from pay statements in the window, and monthly income from transactions on the spending endpoint’s income basis. Window as balance history and spending: end_date omitted or in the future -> today; start_date omitted -> a year before end_date plus one day; start_date after end_date -> 422.
         */
        get: operations["getIncome"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v1/users/liabilities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liabilities
         * @description Every credit and loan account of the user with its liability details (APR, minimum payment, due date, last payment, original principal) and its current balance (the amount owed) from the latest snapshot. Accounts without reported details carry nulls.
         */
        get: operations["getLiabilities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/users/recurring": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Recurring streams
         * @description The user’s recurring streams (subscriptions, bills, pay): the counted transactions of one direction and one merchant key whose dates keep a cadence, over the whole history up to today, with cadence, status, amounts, a price change and the next expected date. Counted as on the spending endpoint: hidden transactions, internal transfers, investment-account activity and transfers to investment platforms never form a stream.
         */
        get: operations["getRecurringStreams"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/v2/users/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Stream events
         * @description Server-sent events telling when the user’s data changed: `changed` (with the sync feed’s counts and the user’s tables that changed), `reset` (the data does not descend from what the client knew: sync again without a cursor), `ready` once the stream is open. Each event’s `id` is a store generation; reconnect with it as `Last-Event-ID` to catch up. `Accept` must be absent or admit `text/event-stream` (406 otherwise). At most 4 open streams per token (429 past them) and a bound per server (503). A stream ends after an hour, when its token is revoked or expires, and on shutdown. Browsers’ `EventSource` cannot send the bearer token: read the stream with `fetch`.
         */
        get: operations["streamEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description Error with a human-readable detail */
        ErrorDetail: {
            detail: string;
        };
        /** @description One invalid input, as pydantic reports it */
        ValidationError: {
            loc: (string | number)[];
            msg: string;
            type: string;
            input?: unknown;
            ctx?: {
                [key: string]: unknown;
            };
        };
        /** @description Every invalid query parameter at once (FastAPI’s 422 body) */
        HTTPValidationError: {
            detail?: components["schemas"]["ValidationError"][];
        };
        /** @description One of the user’s accounts. */
        Account: {
            /** @description Account id. */
            id: string;
            /** @description The link (institution or payroll provider) the account belongs to. */
            link_id: string;
            /** @description Account name. */
            name: string;
            /** @description Last digits of the account number, when known. */
            mask: string | null;
            /**
             * @description Account type; `investment` accounts are excluded from spending.
             * @enum {string}
             */
            type: "depository" | "credit" | "loan" | "investment" | "other";
            /** @description Finer account kind (checking, savings, credit card, brokerage, ...). */
            subtype: string | null;
            /** @description ISO 4217 currency code. */
            currency: string;
        };
        /** @description An account’s latest balance snapshot. */
        AccountLatestBalance: {
            /**
             * @description Latest balance; for credit and loan accounts the amount owed. Decimal string, two decimals.
             * @example 1234.50
             */
            current: string;
            available: string | null;
            credit_limit: string | null;
            /**
             * Format: date
             * @description Date of the latest snapshot. ISO 8601 date (YYYY-MM-DD).
             */
            as_of: string;
        };
        /** @description One of the user’s accounts, with its latest balance. */
        AccountWithBalance: {
            /** @description Account id. */
            id: string;
            /** @description The link (institution or payroll provider) the account belongs to. */
            link_id: string;
            /** @description Account name. */
            name: string;
            /** @description Last digits of the account number, when known. */
            mask: string | null;
            /**
             * @description Account type; `investment` accounts are excluded from spending.
             * @enum {string}
             */
            type: "depository" | "credit" | "loan" | "investment" | "other";
            /** @description Finer account kind (checking, savings, credit card, brokerage, ...). */
            subtype: string | null;
            /** @description ISO 4217 currency code. */
            currency: string;
            /** @description The latest balance snapshot; null when the account has none yet. */
            balance: components["schemas"]["AccountLatestBalance"] | null;
        };
        /** @description The user’s accounts. */
        AccountListResponse: {
            /** @description Every account of the user, by id. */
            accounts: components["schemas"]["AccountWithBalance"][];
        };
        /** @description One account’s end-of-period balance. */
        AccountBalancePoint: {
            /** @description Account id. */
            account_id: string;
            current: string | null;
            as_of: string | null;
        };
        /** @description Balances and net worth at the end of one calendar period. */
        BalanceHistoryPeriod: {
            /**
             * Format: date
             * @description First day of the period, clipped to the window. ISO 8601 date (YYYY-MM-DD).
             */
            start_date: string;
            /**
             * Format: date
             * @description Last day of the period, clipped to the window; balances are taken as of this day. ISO 8601 date (YYYY-MM-DD).
             */
            end_date: string;
            assets: string | null;
            liabilities: string | null;
            net_worth: string | null;
            /** @description Every account of the user, by id. */
            balances: components["schemas"]["AccountBalancePoint"][];
        };
        /** @description End-of-period balances per account and net worth. */
        BalanceHistoryResponse: {
            /**
             * Format: date
             * @description Effective window start. ISO 8601 date (YYYY-MM-DD).
             */
            start_date: string;
            /**
             * Format: date
             * @description Effective window end (capped at today). ISO 8601 date (YYYY-MM-DD).
             */
            end_date: string;
            /**
             * @description The period length used.
             * @enum {string}
             */
            time_period: "day" | "week" | "month" | "quarter" | "year";
            /** @description All of the user’s accounts, by id. */
            accounts: components["schemas"]["Account"][];
            /** @description Every calendar period meeting the window, ascending, including those before any snapshot. */
            periods: components["schemas"]["BalanceHistoryPeriod"][];
        };
        /** @description An account’s latest balance snapshot. */
        AccountBalance: {
            /** @description Account id. */
            account_id: string;
            /** @description The link the account belongs to. */
            link_id: string;
            /** @description Account name. */
            name: string;
            /** @description Last digits of the account number, when known. */
            mask: string | null;
            /**
             * @description Account type: depository, investment and other count as assets; credit and loan as liabilities.
             * @enum {string}
             */
            type: "depository" | "credit" | "loan" | "investment" | "other";
            /** @description Finer account kind. */
            subtype: string | null;
            /** @description ISO 4217 currency code. */
            currency: string;
            current: string | null;
            available: string | null;
            credit_limit: string | null;
            as_of: string | null;
        };
        /** @description Assets, liabilities and net worth from the latest balances. */
        BalanceTotals: {
            /**
             * @description Sum of the latest `current` of depository, investment and other accounts. Decimal string, two decimals.
             * @example 1234.50
             */
            assets: string;
            /**
             * @description Sum of the latest `current` (amount owed) of credit and loan accounts. Decimal string, two decimals.
             * @example 1234.50
             */
            liabilities: string;
            /**
             * @description assets minus liabilities. Decimal string, two decimals.
             * @example 1234.50
             */
            net_worth: string;
            as_of: string | null;
            /**
             * @description ISO 4217 code of the totals: the user’s accounts’ currency (one per user); null without accounts.
             * @example USD
             */
            currency: string | null;
        };
        /** @description Current balances and net worth. */
        BalancesResponse: {
            /** @description Every account of the user, by id; accounts without a snapshot carry nulls. */
            balances: components["schemas"]["AccountBalance"][];
            totals: components["schemas"]["BalanceTotals"];
        };
        /** @description One category of the taxonomy. */
        Category: {
            /**
             * @description The name as transactions carry it and `categories` filters take it.
             * @enum {string}
             */
            name: "Income" | "Transfer In" | "Transfer Out" | "Loan Payments" | "Bank Fees" | "Entertainment" | "Food and Drink" | "General Merchandise" | "Home Improvement" | "Medical" | "Personal Care" | "General Services" | "Government and Non-Profit" | "Transportation" | "Travel" | "Rent and Utilities" | "Other";
        };
        /** @description The category taxonomy. */
        CategoryListResponse: {
            /** @description Every category, in the taxonomy’s order. */
            categories: components["schemas"]["Category"][];
        };
        /** @description The data of a `changed` event: a generation this server started to serve changed the user’s data. Sent once the server answers from it, so a sync sent on receipt sees the change. */
        EventChanged: {
            /**
             * @description The generation now served, the event’s `id`.
             * @example 5f1c0ffee0ddba11
             */
            generation: string;
            /**
             * @description The generation served before, from which the counts run (on a resume, the `Last-Event-ID` sent).
             * @example 5f1c0ffee0ddba11
             */
            previous_generation: string;
            /** @description The user’s transactions that changed, counted exactly as `GET /v2/users/transactions/sync` reports them from a cursor at `previous_generation` to `generation`. */
            transactions: {
                /** @description Transactions a sync from `previous_generation` lists as added. */
                added: number;
                /** @description Transactions it lists as modified. */
                modified: number;
                /** @description Transactions it lists as removed. */
                removed: number;
            };
            /** @description The user’s tables that changed, in the data contract’s order (never empty): `transactions` when a count is not zero; the others when a change set between the two generations changed a row of the user’s (one changed back later still counts). */
            tables: ("links" | "accounts" | "transactions" | "balances" | "pay_statements" | "liabilities")[];
        };
        /** @description The data of a `reset` event: the data served does not descend from what the client was told of (a sync cursor from then answers 410). Sync again without a cursor. */
        EventReset: {
            /**
             * @description The generation now served, the event’s `id`.
             * @example 5f1c0ffee0ddba11
             */
            generation: string;
            /**
             * @description `rebuild`: a full build replaced the data; `restore`: the store went back (an earlier copy published again, change sets applied to one); `expired`: the generation the client knew is older than the change log kept; `unknown`: a `Last-Event-ID` that names no generation of the data served.
             * @enum {string}
             */
            reason: "rebuild" | "restore" | "expired" | "unknown";
        };
        /** @description The data of the `ready` event, sent once when the stream opens, after any catch-up: the client is up to date with `generation`. */
        EventReady: {
            /**
             * @description The generation served, the event’s `id`.
             * @example 5f1c0ffee0ddba11
             */
            generation: string;
        };
        Health: {
            /** @constant */
            status: "ok";
        };
        Readiness: {
            /** @constant */
            status: "ready";
            store_generation: string;
        };
        /** @description Income from one employer of a payroll link, over the window. */
        PayrollIncome: {
            /** @description The payroll link. */
            link_id: string;
            /** @description The payroll provider (the link’s name). */
            provider: string;
            /** @description Employer named on the pay statements. */
            employer: string;
            /**
             * @description Inferred from the distinct pay dates in the window (docs/api.md, "Pay frequency"): at least three dates whose median gap is 5-9 days (weekly), 12-17 (biweekly or semimonthly) or 26-35 (monthly), with 75% of the gaps in that band or twice it (a skipped date); biweekly when the dates fit a 14-day grid at least as closely as two days of the month, else semimonthly. Otherwise irregular.
             * @enum {string}
             */
            pay_frequency: "weekly" | "biweekly" | "semimonthly" | "monthly" | "irregular";
            /**
             * Format: date
             * @description Latest pay date in the window. ISO 8601 date (YYYY-MM-DD).
             */
            last_pay_date: string;
            next_expected_pay_date: string | null;
            /**
             * @description Gross pay over the window’s statements. Decimal string, two decimals.
             * @example 1234.50
             */
            gross_total: string;
            /**
             * @description Net pay over the window’s statements. Decimal string, two decimals.
             * @example 1234.50
             */
            net_total: string;
            /** @description Pay statements in the window. */
            statement_count: number;
        };
        /** @description Income from transactions in one calendar month. */
        MonthlyIncome: {
            /**
             * Format: date
             * @description First day of the month, clipped to the window. ISO 8601 date (YYYY-MM-DD).
             */
            start_date: string;
            /**
             * Format: date
             * @description Last day of the month, clipped to the window. ISO 8601 date (YYYY-MM-DD).
             */
            end_date: string;
            /**
             * @description Sum of the counted CREDIT transactions of the month. Decimal string, two decimals.
             * @example 1234.50
             */
            total: string;
            /** @description Counted CREDIT transactions of the month. */
            transaction_count: number;
        };
        /** @description Payroll income per employer and monthly income from transactions. */
        IncomeResponse: {
            /**
             * Format: date
             * @description Effective window start. ISO 8601 date (YYYY-MM-DD).
             */
            start_date: string;
            /**
             * Format: date
             * @description Effective window end (capped at today). ISO 8601 date (YYYY-MM-DD).
             */
            end_date: string;
            /** @description One entry per (payroll link, employer) with a pay statement in the window, by employer then link id. */
            payroll: components["schemas"]["PayrollIncome"][];
            /** @description Every calendar month meeting the window, ascending, months without income included. Counted: CREDIT transactions, not hidden, not internal transfers, not on investment accounts (the spending endpoint’s income basis). */
            monthly: components["schemas"]["MonthlyIncome"][];
            /**
             * @description Sum of `monthly`: the window’s counted CREDIT total. Decimal string, two decimals.
             * @example 1234.50
             */
            total_income: string;
        };
        /** @description A credit or loan account and its liability details. */
        Liability: {
            /** @description The credit or loan account. */
            account_id: string;
            /** @description Account name. */
            account_name: string;
            /**
             * @description Account type.
             * @enum {string}
             */
            account_type: "credit" | "loan";
            /** @description Finer account kind (credit card, mortgage, student, auto, ...). */
            account_subtype: string | null;
            /** @description Liability kind; null when the pipeline reported no liability details for the account. */
            kind: ("credit_card" | "student_loan" | "mortgage" | "auto_loan" | "personal_loan" | "other") | null;
            /**
             * @description Annual percentage rate, in percent, as reported (at least two decimals, up to four).
             * @example 24.99
             * @example 6.875
             */
            apr: string | null;
            minimum_payment: string | null;
            next_payment_due_date: string | null;
            last_payment_amount: string | null;
            last_payment_date: string | null;
            original_principal: string | null;
            current_balance: string | null;
            as_of: string | null;
        };
        /** @description The user’s credit and loan liabilities. */
        LiabilitiesResponse: {
            /** @description Every credit and loan account of the user, by account id. */
            liabilities: components["schemas"]["Liability"][];
        };
        /** @description A connected financial institution or payroll provider. */
        Link: {
            /** @description Link id. */
            id: string;
            /**
             * @description `institution` (a bank, card issuer, broker, ...) or `payroll` (a payroll provider).
             * @enum {string}
             */
            type: "institution" | "payroll";
            /** @description Institution or payroll provider name. */
            name: string;
            /**
             * @description Connection status.
             * @enum {string}
             */
            status: "active" | "error" | "disconnected";
            /**
             * @description When the link was created. ISO 8601 date-time in UTC, with its `Z`.
             * @example 2026-01-31T09:15:00Z
             */
            created_at: string;
            last_synced_at: string | null;
            /** @description Ids of the link’s accounts, ascending. */
            account_ids: string[];
        };
        /** @description The user’s links. */
        LinkListResponse: {
            /** @description Total results across all pages. */
            count: number;
            /** @description Relative URL (path and query) of the next page, carrying every query parameter sent; null on the last page or without pagination. */
            next: string | null;
            /** @description Relative URL (path and query) of the previous page, carrying every query parameter sent; null on the first page or without pagination. */
            previous: string | null;
            /** @description Links, oldest first (created_at, then id). */
            links: components["schemas"]["Link"][];
        };
        /** @description The stream’s last amount differs from the one it had before by more than 5% of that one: a price rise or fall. */
        AmountChange: {
            /**
             * @description The amount before the last amount took hold. Decimal string, two decimals.
             * @example 1234.50
             */
            previous_amount: string;
            /**
             * Format: date
             * @description The date of the first transaction at the last amount. ISO 8601 date (YYYY-MM-DD).
             */
            changed_on: string;
        };
        /** @description The transactions of one direction and one merchant key whose dates keep a cadence: a subscription, a bill, pay. */
        RecurringStream: {
            /**
             * @description Stable while the user, the direction and the merchant key stay: `str_` and the first 24 hex digits of SHA-256 over `user_id`, NUL, the direction, NUL, the merchant key.
             * @example str_4f1c2a9be07d5c3318a6e2f0
             */
            stream_id: string;
            /** @description The merchant name of the last transaction; null when it has none. */
            merchant_name: string | null;
            /** @description The description of the last transaction. */
            description: string;
            /**
             * @description The category of the last transaction.
             * @enum {string}
             */
            category: "Income" | "Transfer In" | "Transfer Out" | "Loan Payments" | "Bank Fees" | "Entertainment" | "Food and Drink" | "General Merchandise" | "Home Improvement" | "Medical" | "Personal Care" | "General Services" | "Government and Non-Profit" | "Transportation" | "Travel" | "Rent and Utilities" | "Other";
            /** @description The subcategory of the last transaction. */
            subcategory: string | null;
            /**
             * @description Read from the distinct dates: the median gap in a band (weekly 5-9 days, biweekly or semimonthly 12-17, monthly 26-35, quarterly 80-100, semiannually 165-200, annually 350-380), with 75% of the gaps in that band or twice it (a skipped date); biweekly when the dates fit a 14-day grid at least as closely as two days of the month, else semimonthly.
             * @enum {string}
             */
            cadence: "weekly" | "biweekly" | "semimonthly" | "monthly" | "quarterly" | "semiannually" | "annually";
            /**
             * @description `tombstoned` when the predicted next date plus a grace of half a cadence (at least 3 days) is before today; else `mature` from 3 distinct dates (2 when annual), `early_detection` with 2.
             * @enum {string}
             */
            status: "mature" | "early_detection" | "tombstoned";
            /** @description False only when tombstoned. */
            is_active: boolean;
            /**
             * Format: date
             * @description The date of the first transaction. ISO 8601 date (YYYY-MM-DD).
             */
            first_date: string;
            /**
             * Format: date
             * @description The date of the last transaction. ISO 8601 date (YYYY-MM-DD).
             */
            last_date: string;
            predicted_next_date: string | null;
            /** @description Transactions in the stream. */
            transaction_count: number;
            /**
             * @description The mean amount of the stream’s transactions. Decimal string, two decimals.
             * @example 1234.50
             */
            average_amount: string;
            /**
             * @description The amount of the last transaction (latest date, then greatest id). Decimal string, two decimals.
             * @example 1234.50
             */
            last_amount: string;
            /**
             * @description The mean amount times the cadence’s periods a year (52, 26, 24, 12, 4, 2, 1). Decimal string, two decimals.
             * @example 1234.50
             */
            annual_amount: string;
            /** @description Null unless the last amount differs from the one before by more than 5%. */
            amount_change: components["schemas"]["AmountChange"] | null;
            /** @description The accounts of the stream’s transactions, ascending. */
            account_ids: string[];
            /** @description The stream’s transactions, by date, then id. */
            transaction_ids: string[];
        };
        /** @description The user’s recurring streams, money out and money in. */
        RecurringStreamsResponse: {
            /**
             * Format: date
             * @description Today: the last day counted, and the day statuses are judged on. ISO 8601 date (YYYY-MM-DD).
             */
            as_of: string;
            /**
             * @description ISO 4217 code of every amount: the user’s accounts’ currency; null for a user without accounts.
             * @example USD
             */
            currency: string | null;
            /** @description DEBIT streams, by annual_amount descending, then stream_id. */
            outflow_streams: components["schemas"]["RecurringStream"][];
            /** @description CREDIT streams, by annual_amount descending, then stream_id. */
            inflow_streams: components["schemas"]["RecurringStream"][];
        };
        /** @description The largest counted transaction of the entry (ties: latest date, then smallest id) */
        LargestTransaction: {
            /** @description The transaction `id` */
            transaction_id: string;
            /** @description Amount, two decimals */
            amount: string;
            /**
             * Format: date
             * @description Transaction date. ISO 8601 date (YYYY-MM-DD).
             */
            date: string;
            description: string;
            merchant_category_code?: string | null;
        } & {
            [key: string]: unknown;
        };
        /** @description An entry’s total in one subcategory (missing ones under Uncategorized) */
        Subcategory: {
            name: string;
            /** @description Total, two decimals */
            amount: string;
            count: number;
        } & {
            [key: string]: unknown;
        };
        /** @description An entry’s total in one calendar period of `time_period` */
        TimeSeriesPoint: {
            start_date?: string | null;
            /**
             * Format: date
             * @description Period end, clipped to the window. ISO 8601 date (YYYY-MM-DD).
             */
            end_date: string;
            /** @description Total, two decimals */
            amount: string;
            count: number;
        } & {
            [key: string]: unknown;
        };
        /** @description One category: spending, or income when `flow` is `income` */
        CategorySpending: {
            category: string;
            /** @description Total, two decimals */
            total_amount: string;
            transaction_count: number;
            /** @description Total / count, two decimals */
            average_transaction: string;
            /** @description Share of the flow total, two decimals */
            percentage_of_total: string;
            largest_transaction: components["schemas"]["LargestTransaction"];
            trend?: string | null;
            /**
             * @description Whether the entry totals DEBITs (spending) or CREDITs (income)
             * @enum {string}
             */
            flow: "spending" | "income";
            subcategories: components["schemas"]["Subcategory"][];
            time_series: components["schemas"]["TimeSeriesPoint"][];
        } & {
            [key: string]: unknown;
        };
        /** @description One merchant: spending, or income when `flow` is `income` */
        MerchantSpending: {
            merchant_name: string;
            category: string;
            /** @description Total, two decimals */
            total_amount: string;
            transaction_count: number;
            /** @description Total / count, two decimals */
            average_transaction: string;
            /** @description Share of the flow total, two decimals */
            percentage_of_total: string;
            largest_transaction: components["schemas"]["LargestTransaction"];
            trend?: string | null;
            /**
             * @description Whether the entry totals DEBITs (spending) or CREDITs (income)
             * @enum {string}
             */
            flow: "spending" | "income";
            is_recurring: boolean;
            time_series: components["schemas"]["TimeSeriesPoint"][];
        } & {
            [key: string]: unknown;
        };
        /** @description One calendar period: spending, or income when `flow` is `income` */
        TimePeriodSpendingWithTransactionIds: {
            /** @enum {string} */
            time_period: "day" | "week" | "month" | "quarter" | "year";
            start_date?: string | null;
            /**
             * Format: date
             * @description Period end, clipped to the window. ISO 8601 date (YYYY-MM-DD).
             */
            end_date: string;
            /** @description Total, two decimals */
            total_amount: string;
            transaction_count: number;
            /** @description Total / count, two decimals */
            average_transaction: string;
            /** @description Share of the flow total, two decimals */
            percentage_of_total: string;
            largest_transaction: components["schemas"]["LargestTransaction"];
            trend?: string | null;
            /**
             * @description Whether the entry totals DEBITs (spending) or CREDITs (income)
             * @enum {string}
             */
            flow: "spending" | "income";
            /** @description The counted ids, ordered; only for a single-day day grouping */
            transaction_ids?: string[] | null;
        } & {
            [key: string]: unknown;
        };
        /** @description One category or merchant of a period’s breakdown, or `Other`: the rest */
        SpendingBreakdownItem: {
            name: string;
            /** @description Total, two decimals */
            amount: string;
            transaction_count: number;
            /** @description Share of the period's total, two decimals */
            percentage: string;
        };
        /** @description One calendar period of the double aggregation, with its top 10 plus `Other` */
        TimePeriodSpendingEnriched: {
            start_date?: string | null;
            /**
             * Format: date
             * @description Period end, clipped to the window. ISO 8601 date (YYYY-MM-DD).
             */
            end_date: string;
            /** @description Total spending in the period */
            total_amount: string;
            transaction_count: number;
            /** @description Share of the total spending */
            percentage_of_total: string;
            trend?: string | null;
            breakdown: components["schemas"]["SpendingBreakdownItem"][];
        };
        /** @description Aggregated spending data: the list of `group_by` is filled, the two others are null */
        SpendingDataWithTransactionIds: {
            by_category: components["schemas"]["CategorySpending"][] | null;
            by_merchant: components["schemas"]["MerchantSpending"][] | null;
            by_time_period: components["schemas"]["TimePeriodSpendingWithTransactionIds"][] | null;
        } & {
            [key: string]: unknown;
        };
        /** @description Summary statistics of the counted spending over the window */
        SpendingSummary: {
            /** @description Total counted spending */
            total_spending: string;
            /** @description Total / days in the window */
            average_daily_spending: string;
            /** @description Average daily x 30.4375 */
            average_monthly_spending: string;
            total_transactions: number;
            unique_merchants: number;
            top_category: string;
            top_merchant: string;
        } & {
            [key: string]: unknown;
        };
        /** @description Categorized spending totals of the token’s user */
        SpendingAnalysisEnrichedResponse: {
            spending: components["schemas"]["SpendingDataWithTransactionIds"];
            summary: components["schemas"]["SpendingSummary"];
            /** @description Equals the x-request-id header */
            request_id: string;
            /**
             * Format: date-time
             * @description Analysis creation timestamp
             */
            created_at: string;
            /** @description Present only when group_by=time_period and secondary_group_by is set */
            by_time_period?: components["schemas"]["TimePeriodSpendingEnriched"][] | null;
            total_income?: string | null;
            total_expenses?: string | null;
            savings_rate?: string | null;
            /**
             * @description ISO 4217 code of every amount in the answer: the user’s accounts’ currency (one per user); null for a user without accounts. Always sent; optional in the published interface.
             * @example USD
             */
            currency?: string | null;
        };
        /** @description One transaction of the user. */
        Transaction: {
            /** @description Transaction id (at most 32 characters); the id spending responses refer to. */
            id: string;
            /** @description The institution’s own id for the transaction. */
            external_id: string | null;
            /** @description The account the transaction belongs to. */
            account_id: string;
            /**
             * Format: date
             * @description Transaction date. ISO 8601 date (YYYY-MM-DD).
             */
            transacted_at: string;
            /**
             * @description Amount, always positive; `direction` tells debit from credit. Decimal string, two decimals.
             * @example 1234.50
             */
            amount: string;
            /**
             * @description DEBIT (money out) or CREDIT (money in).
             * @enum {string}
             */
            direction: "DEBIT" | "CREDIT";
            /** @description Statement description. */
            description: string;
            /** @description Merchant, when known. */
            merchant_name: string | null;
            /**
             * @description Category from the taxonomy.
             * @enum {string}
             */
            category: "Income" | "Transfer In" | "Transfer Out" | "Loan Payments" | "Bank Fees" | "Entertainment" | "Food and Drink" | "General Merchandise" | "Home Improvement" | "Medical" | "Personal Care" | "General Services" | "Government and Non-Profit" | "Transportation" | "Travel" | "Rent and Utilities" | "Other";
            /** @description Free-text subcategory. */
            subcategory: string | null;
            /** @description Card network merchant category code. */
            merchant_category_code: string | null;
            /** @description Hidden by the user; excluded from spending. */
            is_hidden: boolean;
            /** @description A transfer between the user’s own accounts (card payments included); excluded from spending. */
            is_internal_transfer: boolean;
            /** @description The account is an investment account; its activity is excluded from spending. */
            is_investment_account: boolean;
        };
        /** @description Totals of one day present on the returned page, over all matching transactions of that day (not only those on the page), so a day split across pages reports the same figures on each. */
        DailyTotal: {
            /**
             * Format: date
             * @description The day. ISO 8601 date (YYYY-MM-DD).
             */
            date: string;
            /**
             * @description Sum of the DEBIT amounts of every matching transaction of the day. Decimal string, two decimals.
             * @example 1234.50
             */
            debits: string;
            /**
             * @description Sum of the CREDIT amounts of every matching transaction of the day. Decimal string, two decimals.
             * @example 1234.50
             */
            credits: string;
            /**
             * @description credits minus debits; negative when more went out than came in. Decimal string, two decimals.
             * @example 1234.50
             */
            net: string;
            /** @description Number of matching transactions of the day. */
            count: number;
        };
        /** @description A page (or all) of the user’s transactions. */
        TransactionListResponse: {
            /** @description Total results across all pages. */
            count: number;
            /** @description Relative URL (path and query) of the next page, carrying every query parameter sent; null on the last page or without pagination. */
            next: string | null;
            /** @description Relative URL (path and query) of the previous page, carrying every query parameter sent; null on the first page or without pagination. */
            previous: string | null;
            /** @description Matching transactions, newest first (transacted_at descending, then id descending). */
            transactions: components["schemas"]["Transaction"][];
            /** @description All of the user’s accounts, by id. */
            accounts: components["schemas"]["Account"][];
            /** @description One entry per day present in `transactions`, newest first. */
            daily_totals: components["schemas"]["DailyTotal"][];
        };
        /** @description A transaction removed since the cursor. */
        RemovedTransaction: {
            /** @description The id of a transaction no longer there. */
            id: string;
        };
        /** @description One page of the net change of the user’s transactions between the cursor and the data the sync started on: `count` changes at most, ordered by transaction id across the three lists. */
        TransactionSyncResponse: {
            /** @description Transactions there now that were not at the cursor (every current one without a cursor), by id, as the list shows them. */
            added: components["schemas"]["Transaction"][];
            /** @description Transactions there at the cursor and now whose listed fields changed, by id, as they are now. */
            modified: components["schemas"]["Transaction"][];
            /** @description Transactions there at the cursor that are not any more, by id. */
            removed: components["schemas"]["RemovedTransaction"][];
            /** @description While `has_more`: the cursor of the next page of this sync (which keeps reading the data it started on). Otherwise: where the next sync starts. */
            next_cursor: string;
            /** @description More changes of this sync follow: ask again with `next_cursor`. */
            has_more: boolean;
        };
        /** @description The token owner's profile */
        UserProfile: {
            id: string;
            name: string;
            email: string;
            phone: string | null;
        };
    };
    responses: never;
    parameters: {
        /** @description Your own request id, echoed in the `x-request-id` response header (and in a spending body’s `request_id`); a missing or unsafe one is replaced by a new UUID */
        RequestId: string;
    };
    requestBodies: never;
    headers: {
        /** @description The request id: the caller’s own `x-request-id` when it is safe to echo, else a new UUID */
        RequestId: string;
        /** @description `Bearer`, or `Bearer error="invalid_token"` for a bad token */
        WWWAuthenticate: string;
        /** @description Seconds to wait before retrying */
        RetryAfter: number;
        /** @description RFC 9745: when the endpoint was deprecated, `@` and Unix seconds (`@1767225600`: 2026-01-01) */
        Deprecation: string;
        /** @description RFC 8594: when the endpoint goes away, an HTTP-date (`Wed, 30 Jun 2027 23:59:59 GMT`) */
        Sunset: string;
        /** @description The successor: `</v2/users/spending>; rel="successor-version"` */
        Link: string;
        /** @description Weak entity tag of the answer: the same for the same user, query, day and data; send it back in `If-None-Match` to get 304 while nothing changed */
        ETag: string;
        /** @description The store generation the answer was computed from (the data as one build or change set published it; `/readyz` names the current one): on every answer to an authenticated request. A new value means new data, and new ETags */
        StoreGeneration: string;
        /** @description `attachment; filename="..."` when the answer is a file (any media type but `application/json`): the name to save it under */
        ContentDisposition: string;
        /** @description Names `Accept` (and `accept-encoding` when compressed): the media type served depends on it */
        VaryAccept: string;
        /** @description `private, no-cache` on an authenticated answer (keep it, revalidate before use, never in a shared cache); `no-store` on everything else */
        CacheControl: string;
        /** @description `no-store`: an event stream is never kept */
        CacheControlNoStore: string;
        /** @description `no`: a proxy that buffers answers (nginx) passes each event on as it comes */
        AccelBuffering: string;
        /** @description Seconds to wait before retrying: the server is overloaded, or the store (or the shard holding the user) cannot answer now */
        RetryAfterUnavailable: number;
        /** @description Requests allowed per window for this token (per address without one), when rate limiting is on */
        RateLimitLimit: number;
        /** @description Requests left in the current window, when rate limiting is on */
        RateLimitRemaining: number;
        /** @description Seconds until the window resets, when rate limiting is on */
        RateLimitReset: number;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getLiveness: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your own request id, echoed in the `x-request-id` response header (and in a spending body’s `request_id`); a missing or unsafe one is replaced by a new UUID */
                "x-request-id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Health"];
                };
            };
            /** @description Bad Request: an HTTP/1.1 request without a `Host` header */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description HTTP Version Not Supported: the request line names a version other than HTTP/1.x */
            505: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "HTTP Version Not Supported"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    headLiveness: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your own request id, echoed in the `x-request-id` response header (and in a spending body’s `request_id`); a missing or unsafe one is replaced by a new UUID */
                "x-request-id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: an HTTP/1.1 request without a `Host` header */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description HTTP Version Not Supported: the request line names a version other than HTTP/1.x */
            505: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getReadiness: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your own request id, echoed in the `x-request-id` response header (and in a spending body’s `request_id`); a missing or unsafe one is replaced by a new UUID */
                "x-request-id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Readiness"];
                };
            };
            /** @description Bad Request: an HTTP/1.1 request without a `Host` header */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description The data store is unavailable, the server is overloaded or shutting down; retry later */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfterUnavailable"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description HTTP Version Not Supported: the request line names a version other than HTTP/1.x */
            505: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "HTTP Version Not Supported"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    headReadiness: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your own request id, echoed in the `x-request-id` response header (and in a spending body’s `request_id`); a missing or unsafe one is replaced by a new UUID */
                "x-request-id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: an HTTP/1.1 request without a `Host` header */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The data store is unavailable, the server is overloaded or shutting down; retry later */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfterUnavailable"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description HTTP Version Not Supported: the request line names a version other than HTTP/1.x */
            505: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    getUserProfile: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your own request id, echoed in the `x-request-id` response header (and in a spending body’s `request_id`); a missing or unsafe one is replaced by a new UUID */
                "x-request-id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["UserProfile"];
                };
            };
            /** @description Not Modified: the `If-None-Match` entity tag is the current one; no body, keep using your copy */
            304: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: an HTTP/1.1 request without a `Host` header */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Missing or malformed Authorization header (`Not authenticated`), or an unknown, revoked or expired token (`Invalid authentication credentials`) */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not Found"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description URI Too Long: the URL exceeds the server’s limit */
            414: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Too Many Requests: retry after the `Retry-After` seconds */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Internal Server Error: a bug on our side, never with internals in the body */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description The data store is unavailable, the server is overloaded or shutting down; retry later */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfterUnavailable"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description HTTP Version Not Supported: the request line names a version other than HTTP/1.x */
            505: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "HTTP Version Not Supported"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getSpending: {
        parameters: {
            query: {
                /** @description What the listed entries are: category, merchant or time_period */
                group_by: "category" | "merchant" | "time_period";
                /** @description Calendar period of time series, trends and period entries */
                time_period: "day" | "week" | "month" | "quarter" | "year";
                /** @description Only accounts of this link; empty means no filter */
                link_id?: string;
                /** @description First day (inclusive); default: the day after the same date a year before end_date */
                start_date?: string;
                /** @description Last day (inclusive); omitted or future: today */
                end_date?: string;
                /** @description Account ids, comma-separated (`account_ids=a1,a2`), repeated (`account_ids=a1&account_ids=a2`) or both; blanks trimmed, empty items ignored; no item at all (`account_ids=`) means no filter. Ids that are not yours match nothing. */
                account_ids?: string[];
                /** @description Category names (case-insensitive), comma-separated (`categories=Travel,Medical`), repeated (`categories=Travel&categories=Medical`) or both; blanks trimmed, empty items ignored; no item at all (`categories=`) means no filter; an unknown name answers 422. Valid names (GET /v1/categories): Income, Transfer In, Transfer Out, Loan Payments, Bank Fees, Entertainment, Food and Drink, General Merchandise, Home Improvement, Medical, Personal Care, General Services, Government and Non-Profit, Transportation, Travel, Rent and Utilities, Other */
                categories?: string[];
                /** @description Category and merchant entries totalling less are left out of their lists */
                min_total_amount?: number | string;
                /** @description Also list income entries (CREDITs) */
                include_income?: boolean;
                /** @description With group_by=time_period: a per-period breakdown by category or merchant */
                secondary_group_by?: "category" | "merchant";
            };
            header?: {
                /** @description Your own request id, echoed in the `x-request-id` response header (and in a spending body’s `request_id`); a missing or unsafe one is replaced by a new UUID */
                "x-request-id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpendingAnalysisEnrichedResponse"];
                };
            };
            /** @description Not Modified: the `If-None-Match` entity tag is the current one; no body, keep using your copy */
            304: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: an HTTP/1.1 request without a `Host` header */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Missing or malformed Authorization header (`Not authenticated`), or an unknown, revoked or expired token (`Invalid authentication credentials`) */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description URI Too Long: the URL exceeds the server’s limit */
            414: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Too Many Requests: retry after the `Retry-After` seconds */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Internal Server Error: a bug on our side, never with internals in the body */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description The data store is unavailable, the server is overloaded or shutting down; retry later */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfterUnavailable"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description HTTP Version Not Supported: the request line names a version other than HTTP/1.x */
            505: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "HTTP Version Not Supported"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getSpendingLegacy: {
        parameters: {
            query: {
                /** @description What the listed entries are: category, merchant or time_period */
                group_by: "category" | "merchant" | "time_period";
                /** @description Calendar period of time series, trends and period entries */
                time_period: "day" | "week" | "month" | "quarter" | "year";
                /** @description Only accounts of this link; empty means no filter */
                link_id?: string;
                /** @description First day (inclusive); default: the day after the same date a year before end_date */
                start_date?: string;
                /** @description Last day (inclusive); omitted or future: today */
                end_date?: string;
                /** @description Account ids, comma-separated (`account_ids=a1,a2`), repeated (`account_ids=a1&account_ids=a2`) or both; blanks trimmed, empty items ignored; no item at all (`account_ids=`) means no filter. Ids that are not yours match nothing. */
                account_ids?: string[];
                /** @description Category names (case-insensitive), comma-separated (`categories=Travel,Medical`), repeated (`categories=Travel&categories=Medical`) or both; blanks trimmed, empty items ignored; no item at all (`categories=`) means no filter; an unknown name answers 422. Valid names (GET /v1/categories): Income, Transfer In, Transfer Out, Loan Payments, Bank Fees, Entertainment, Food and Drink, General Merchandise, Home Improvement, Medical, Personal Care, General Services, Government and Non-Profit, Transportation, Travel, Rent and Utilities, Other */
                categories?: string[];
                /** @description Category and merchant entries totalling less are left out of their lists */
                min_total_amount?: number | string;
                /** @description Also list income entries (CREDITs) */
                include_income?: boolean;
                /** @description With group_by=time_period: a per-period breakdown by category or merchant */
                secondary_group_by?: "category" | "merchant";
            };
            header?: {
                /** @description Your own request id, echoed in the `x-request-id` response header (and in a spending body’s `request_id`); a missing or unsafe one is replaced by a new UUID */
                "x-request-id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    Deprecation: components["headers"]["Deprecation"];
                    Sunset: components["headers"]["Sunset"];
                    Link: components["headers"]["Link"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["SpendingAnalysisEnrichedResponse"];
                };
            };
            /** @description Not Modified: the `If-None-Match` entity tag is the current one; no body, keep using your copy */
            304: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: an HTTP/1.1 request without a `Host` header */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Missing or malformed Authorization header (`Not authenticated`), or an unknown, revoked or expired token (`Invalid authentication credentials`) */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description URI Too Long: the URL exceeds the server’s limit */
            414: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Too Many Requests: retry after the `Retry-After` seconds */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Internal Server Error: a bug on our side, never with internals in the body */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description The data store is unavailable, the server is overloaded or shutting down; retry later */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfterUnavailable"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description HTTP Version Not Supported: the request line names a version other than HTTP/1.x */
            505: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "HTTP Version Not Supported"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    listTransactions: {
        parameters: {
            query?: {
                /** @description First transaction date included (YYYY-MM-DD). */
                transacted_at_from?: string;
                /** @description Last transaction date included (YYYY-MM-DD). */
                transacted_at_to?: string;
                /** @description Account ids, comma-separated (`account_ids=a1,a2`), repeated (`account_ids=a1&account_ids=a2`) or both; blanks trimmed, empty items ignored; no item at all (`account_ids=`) means no filter. Ids that are not yours match nothing. */
                account_ids?: string[];
                /** @description Only accounts of this link; empty means no filter. */
                link_id?: string;
                /** @description Category names (case-insensitive), comma-separated (`categories=Travel,Medical`), repeated (`categories=Travel&categories=Medical`) or both; blanks trimmed, empty items ignored; no item at all (`categories=`) means no filter; an unknown name answers 422. Valid names (GET /v1/categories): Income, Transfer In, Transfer Out, Loan Payments, Bank Fees, Entertainment, Food and Drink, General Merchandise, Home Improvement, Medical, Personal Care, General Services, Government and Non-Profit, Transportation, Travel, Rent and Utilities, Other */
                categories?: string[];
                /** @description DEBIT (money out) or CREDIT (money in). */
                direction?: "DEBIT" | "CREDIT";
                /** @description Smallest amount included (amounts are positive; `direction` tells the sign). */
                min_amount?: number | string;
                /** @description Largest amount included. */
                max_amount?: number | string;
                /** @description Text the description or the merchant name contains, taken literally, case-insensitively (both lower-cased character by character, as DuckDB’s lower() does); empty means no filter. */
                q?: string;
                /** @description 1-based page number; defaults to 1 once pagination is on. */
                page?: number;
                /** @description Page size, 10 to 500; defaults to 500 once pagination is on. */
                page_size?: number;
                /** @description The answer’s format: `json` (the default), or a file of the transactions: `csv`, `ndjson` or `parquet`. When sent, it wins over `Accept`; without it the format is negotiated from `Accept` (`application/json`, `text/csv`, `application/x-ndjson`, `application/vnd.apache.parquet`). */
                format?: "json" | "csv" | "ndjson" | "parquet";
            };
            header?: {
                /** @description Your own request id, echoed in the `x-request-id` response header (and in a spending body’s `request_id`); a missing or unsafe one is replaced by a new UUID */
                "x-request-id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    Vary: components["headers"]["VaryAccept"];
                    "Content-Disposition": components["headers"]["ContentDisposition"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransactionListResponse"];
                    "text/csv": string;
                    "application/x-ndjson": string;
                    "application/vnd.apache.parquet": string;
                };
            };
            /** @description Not Modified: the `If-None-Match` entity tag is the current one; no body, keep using your copy */
            304: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    Vary: components["headers"]["VaryAccept"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: an HTTP/1.1 request without a `Host` header */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Missing or malformed Authorization header (`Not authenticated`), or an unknown, revoked or expired token (`Invalid authentication credentials`) */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Not Acceptable: `Accept` names none of the media types the answer is served in (they are listed in the detail) */
            406: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description URI Too Long: the URL exceeds the server’s limit */
            414: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Too Many Requests: retry after the `Retry-After` seconds */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Internal Server Error: a bug on our side, never with internals in the body */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description The data store is unavailable, the server is overloaded or shutting down; retry later */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfterUnavailable"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description HTTP Version Not Supported: the request line names a version other than HTTP/1.x */
            505: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "HTTP Version Not Supported"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    syncTransactions: {
        parameters: {
            query?: {
                /** @description Where the last sync ended (its `next_cursor`), or where a sync under way goes on (the page before’s `next_cursor` while `has_more`). Omit it (or send it empty) to start from nothing: every current transaction is then `added`. Opaque: send it back as received. */
                cursor?: string;
                /** @description Changes per page, 1 to 500; default 100. */
                count?: number;
            };
            header?: {
                /** @description Your own request id, echoed in the `x-request-id` response header (and in a spending body’s `request_id`); a missing or unsafe one is replaced by a new UUID */
                "x-request-id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TransactionSyncResponse"];
                };
            };
            /** @description Not Modified: the `If-None-Match` entity tag is the current one; no body, keep using your copy */
            304: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: an HTTP/1.1 request without a `Host` header */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Missing or malformed Authorization header (`Not authenticated`), or an unknown, revoked or expired token (`Invalid authentication credentials`) */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Default Response */
            410: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "This cursor is older than the change log this store keeps, or the store was rebuilt or restored since: sync again without a cursor."
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description URI Too Long: the URL exceeds the server’s limit */
            414: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Too Many Requests: retry after the `Retry-After` seconds */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Internal Server Error: a bug on our side, never with internals in the body */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description The data store is unavailable, the server is overloaded or shutting down; retry later */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfterUnavailable"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description HTTP Version Not Supported: the request line names a version other than HTTP/1.x */
            505: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "HTTP Version Not Supported"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getTransaction: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your own request id, echoed in the `x-request-id` response header (and in a spending body’s `request_id`); a missing or unsafe one is replaced by a new UUID */
                "x-request-id"?: components["parameters"]["RequestId"];
            };
            path: {
                /** @description The transaction `id` (as the list and `transaction_ids` give it). */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Transaction"];
                };
            };
            /** @description Not Modified: the `If-None-Match` entity tag is the current one; no body, keep using your copy */
            304: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: an HTTP/1.1 request without a `Host` header */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Missing or malformed Authorization header (`Not authenticated`), or an unknown, revoked or expired token (`Invalid authentication credentials`) */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Not Found */
            404: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description URI Too Long: the URL exceeds the server’s limit */
            414: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Too Many Requests: retry after the `Retry-After` seconds */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Internal Server Error: a bug on our side, never with internals in the body */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description The data store is unavailable, the server is overloaded or shutting down; retry later */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfterUnavailable"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description HTTP Version Not Supported: the request line names a version other than HTTP/1.x */
            505: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "HTTP Version Not Supported"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    listLinks: {
        parameters: {
            query?: {
                /** @description 1-based page number; defaults to 1 once pagination is on. */
                page?: number;
                /** @description Page size, 10 to 500; defaults to 500 once pagination is on. */
                page_size?: number;
            };
            header?: {
                /** @description Your own request id, echoed in the `x-request-id` response header (and in a spending body’s `request_id`); a missing or unsafe one is replaced by a new UUID */
                "x-request-id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LinkListResponse"];
                };
            };
            /** @description Not Modified: the `If-None-Match` entity tag is the current one; no body, keep using your copy */
            304: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: an HTTP/1.1 request without a `Host` header */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Missing or malformed Authorization header (`Not authenticated`), or an unknown, revoked or expired token (`Invalid authentication credentials`) */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description URI Too Long: the URL exceeds the server’s limit */
            414: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Too Many Requests: retry after the `Retry-After` seconds */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Internal Server Error: a bug on our side, never with internals in the body */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description The data store is unavailable, the server is overloaded or shutting down; retry later */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfterUnavailable"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description HTTP Version Not Supported: the request line names a version other than HTTP/1.x */
            505: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "HTTP Version Not Supported"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    listAccounts: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your own request id, echoed in the `x-request-id` response header (and in a spending body’s `request_id`); a missing or unsafe one is replaced by a new UUID */
                "x-request-id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["AccountListResponse"];
                };
            };
            /** @description Not Modified: the `If-None-Match` entity tag is the current one; no body, keep using your copy */
            304: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: an HTTP/1.1 request without a `Host` header */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Missing or malformed Authorization header (`Not authenticated`), or an unknown, revoked or expired token (`Invalid authentication credentials`) */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description URI Too Long: the URL exceeds the server’s limit */
            414: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Too Many Requests: retry after the `Retry-After` seconds */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Internal Server Error: a bug on our side, never with internals in the body */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description The data store is unavailable, the server is overloaded or shutting down; retry later */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfterUnavailable"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description HTTP Version Not Supported: the request line names a version other than HTTP/1.x */
            505: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "HTTP Version Not Supported"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    listCategories: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your own request id, echoed in the `x-request-id` response header (and in a spending body’s `request_id`); a missing or unsafe one is replaced by a new UUID */
                "x-request-id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["CategoryListResponse"];
                };
            };
            /** @description Not Modified: the `If-None-Match` entity tag is the current one; no body, keep using your copy */
            304: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: an HTTP/1.1 request without a `Host` header */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Missing or malformed Authorization header (`Not authenticated`), or an unknown, revoked or expired token (`Invalid authentication credentials`) */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description URI Too Long: the URL exceeds the server’s limit */
            414: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Too Many Requests: retry after the `Retry-After` seconds */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Internal Server Error: a bug on our side, never with internals in the body */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description The data store is unavailable, the server is overloaded or shutting down; retry later */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfterUnavailable"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description HTTP Version Not Supported: the request line names a version other than HTTP/1.x */
            505: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "HTTP Version Not Supported"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getBalances: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your own request id, echoed in the `x-request-id` response header (and in a spending body’s `request_id`); a missing or unsafe one is replaced by a new UUID */
                "x-request-id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BalancesResponse"];
                };
            };
            /** @description Not Modified: the `If-None-Match` entity tag is the current one; no body, keep using your copy */
            304: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: an HTTP/1.1 request without a `Host` header */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Missing or malformed Authorization header (`Not authenticated`), or an unknown, revoked or expired token (`Invalid authentication credentials`) */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description URI Too Long: the URL exceeds the server’s limit */
            414: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Too Many Requests: retry after the `Retry-After` seconds */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Internal Server Error: a bug on our side, never with internals in the body */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description The data store is unavailable, the server is overloaded or shutting down; retry later */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfterUnavailable"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description HTTP Version Not Supported: the request line names a version other than HTTP/1.x */
            505: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "HTTP Version Not Supported"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getBalanceHistory: {
        parameters: {
            query?: {
                /** @description First day of the window (YYYY-MM-DD); default: the same date a year before end_date, plus one day. */
                start_date?: string;
                /** @description Last day of the window (YYYY-MM-DD); omitted or in the future -> today. */
                end_date?: string;
                /** @description Calendar period: day, week (ISO, Monday to Sunday), month, quarter or year. Default month. */
                time_period?: "day" | "week" | "month" | "quarter" | "year";
            };
            header?: {
                /** @description Your own request id, echoed in the `x-request-id` response header (and in a spending body’s `request_id`); a missing or unsafe one is replaced by a new UUID */
                "x-request-id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BalanceHistoryResponse"];
                };
            };
            /** @description Not Modified: the `If-None-Match` entity tag is the current one; no body, keep using your copy */
            304: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: an HTTP/1.1 request without a `Host` header */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Missing or malformed Authorization header (`Not authenticated`), or an unknown, revoked or expired token (`Invalid authentication credentials`) */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description URI Too Long: the URL exceeds the server’s limit */
            414: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Too Many Requests: retry after the `Retry-After` seconds */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Internal Server Error: a bug on our side, never with internals in the body */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description The data store is unavailable, the server is overloaded or shutting down; retry later */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfterUnavailable"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description HTTP Version Not Supported: the request line names a version other than HTTP/1.x */
            505: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "HTTP Version Not Supported"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getIncome: {
        parameters: {
            query?: {
                /** @description First day of the window (YYYY-MM-DD); default: the same date a year before end_date, plus one day. */
                start_date?: string;
                /** @description Last day of the window (YYYY-MM-DD); omitted or in the future -> today. */
                end_date?: string;
            };
            header?: {
                /** @description Your own request id, echoed in the `x-request-id` response header (and in a spending body’s `request_id`); a missing or unsafe one is replaced by a new UUID */
                "x-request-id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["IncomeResponse"];
                };
            };
            /** @description Not Modified: the `If-None-Match` entity tag is the current one; no body, keep using your copy */
            304: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: an HTTP/1.1 request without a `Host` header */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Missing or malformed Authorization header (`Not authenticated`), or an unknown, revoked or expired token (`Invalid authentication credentials`) */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description URI Too Long: the URL exceeds the server’s limit */
            414: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Validation Error */
            422: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HTTPValidationError"];
                };
            };
            /** @description Too Many Requests: retry after the `Retry-After` seconds */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Internal Server Error: a bug on our side, never with internals in the body */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description The data store is unavailable, the server is overloaded or shutting down; retry later */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfterUnavailable"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description HTTP Version Not Supported: the request line names a version other than HTTP/1.x */
            505: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "HTTP Version Not Supported"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getLiabilities: {
        parameters: {
            query?: never;
            header?: {
                /** @description Your own request id, echoed in the `x-request-id` response header (and in a spending body’s `request_id`); a missing or unsafe one is replaced by a new UUID */
                "x-request-id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["LiabilitiesResponse"];
                };
            };
            /** @description Not Modified: the `If-None-Match` entity tag is the current one; no body, keep using your copy */
            304: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: an HTTP/1.1 request without a `Host` header */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Missing or malformed Authorization header (`Not authenticated`), or an unknown, revoked or expired token (`Invalid authentication credentials`) */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description URI Too Long: the URL exceeds the server’s limit */
            414: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Too Many Requests: retry after the `Retry-After` seconds */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Internal Server Error: a bug on our side, never with internals in the body */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description The data store is unavailable, the server is overloaded or shutting down; retry later */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfterUnavailable"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description HTTP Version Not Supported: the request line names a version other than HTTP/1.x */
            505: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "HTTP Version Not Supported"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    getRecurringStreams: {
        parameters: {
            query?: {
                /** @description Account ids, comma-separated (`account_ids=a1,a2`), repeated (`account_ids=a1&account_ids=a2`) or both; blanks trimmed, empty items ignored; no item at all (`account_ids=`) means no filter. Ids that are not yours match nothing. */
                account_ids?: string[];
                /** @description Only accounts of this link; empty means no filter */
                link_id?: string;
            };
            header?: {
                /** @description Your own request id, echoed in the `x-request-id` response header (and in a spending body’s `request_id`); a missing or unsafe one is replaced by a new UUID */
                "x-request-id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RecurringStreamsResponse"];
                };
            };
            /** @description Not Modified: the `If-None-Match` entity tag is the current one; no body, keep using your copy */
            304: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    ETag: components["headers"]["ETag"];
                    "Cache-Control": components["headers"]["CacheControl"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description Bad Request: an HTTP/1.1 request without a `Host` header */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Missing or malformed Authorization header (`Not authenticated`), or an unknown, revoked or expired token (`Invalid authentication credentials`) */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description URI Too Long: the URL exceeds the server’s limit */
            414: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Too Many Requests: retry after the `Retry-After` seconds */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Internal Server Error: a bug on our side, never with internals in the body */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description The data store is unavailable, the server is overloaded or shutting down; retry later */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfterUnavailable"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description HTTP Version Not Supported: the request line names a version other than HTTP/1.x */
            505: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "HTTP Version Not Supported"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
    streamEvents: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `id` of the last event received: a generation. Resumes the stream: one `changed` (when the user’s data changed since) or a `reset` (when the change log does not lead from it), then `ready`. */
                "last-event-id"?: string;
                /** @description Your own request id, echoed in the `x-request-id` response header (and in a spending body’s `request_id`); a missing or unsafe one is replaced by a new UUID */
                "x-request-id"?: components["parameters"]["RequestId"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Successful Response */
            200: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Cache-Control": components["headers"]["CacheControlNoStore"];
                    "X-Accel-Buffering": components["headers"]["AccelBuffering"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example retry: 5000
                     *
                     *     event: changed
                     *     id: 5f1c0ffee0ddba11
                     *     data: {"generation":"5f1c0ffee0ddba11","previous_generation":"0b7e9a4c2d316f58","transactions":{"added":3,"modified":1,"removed":0},"tables":["transactions","balances"]}
                     *
                     *     event: ready
                     *     id: 5f1c0ffee0ddba11
                     *     data: {"generation":"5f1c0ffee0ddba11"}
                     *
                     *     : keep-alive
                     *
                     *     event: changed
                     *     id: 9a04d6e1b2c37f85
                     *     data: {"generation":"9a04d6e1b2c37f85","previous_generation":"5f1c0ffee0ddba11","transactions":{"added":0,"modified":0,"removed":1},"tables":["accounts","transactions"]}
                     *
                     *     event: reset
                     *     id: c3e8f1a05d7b2946
                     *     data: {"generation":"c3e8f1a05d7b2946","reason":"rebuild"}
                     */
                    "text/event-stream": string;
                };
            };
            /** @description Bad Request: an HTTP/1.1 request without a `Host` header */
            400: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Bad Request"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Missing or malformed Authorization header (`Not authenticated`), or an unknown, revoked or expired token (`Invalid authentication credentials`) */
            401: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "WWW-Authenticate": components["headers"]["WWWAuthenticate"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Not authenticated"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Not Acceptable: `Accept` names none of the media types the answer is served in (they are listed in the detail) */
            406: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description URI Too Long: the URL exceeds the server’s limit */
            414: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "URI Too Long"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Too Many Requests: retry after the `Retry-After` seconds */
            429: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfter"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Too Many Requests"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description Internal Server Error: a bug on our side, never with internals in the body */
            500: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Internal Server Error"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description The data store is unavailable, the server is overloaded or shutting down; retry later */
            503: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "Retry-After": components["headers"]["RetryAfterUnavailable"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "Service Unavailable"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
            /** @description HTTP Version Not Supported: the request line names a version other than HTTP/1.x */
            505: {
                headers: {
                    "x-request-id": components["headers"]["RequestId"];
                    "X-Store-Generation": components["headers"]["StoreGeneration"];
                    "RateLimit-Limit": components["headers"]["RateLimitLimit"];
                    "RateLimit-Remaining": components["headers"]["RateLimitRemaining"];
                    "RateLimit-Reset": components["headers"]["RateLimitReset"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "detail": "HTTP Version Not Supported"
                     *     }
                     */
                    "application/json": components["schemas"]["ErrorDetail"];
                };
            };
        };
    };
}
