#!/usr/bin/env python3
"""Golden responses of the non-spending endpoints, from a real FastAPI app.

A FastAPI app declares the same routes, query parameters and security as ours
(HTTPBearer plus a token check answering 401 "Invalid authentication credentials" with
WWW-Authenticate: Bearer error="invalid_token"; the start_date/end_date window check of
docs/api.md raised as a RequestValidationError), and Starlette's TestClient records status,
body and the WWW-Authenticate header for every case: authentication headers, pagination
bounds, dates, enums, repeated parameters, cross-parameter checks.

The valid token is the placeholder ``{T}``: the test substitutes a real one; any other token
is unknown to the reference, as it is to the store.

Needs FastAPI (checked with 0.142, Starlette 1.7, pydantic 2.13):
    python3 -m venv /tmp/fa --system-site-packages && /tmp/fa/bin/pip install fastapi httpx
    /tmp/fa/bin/python test/golden/generators/generate_endpoint_golden.py
(writes test/golden/validation/endpoints.json)
"""

from __future__ import annotations

import datetime
import enum
import json
from pathlib import Path
from typing import Optional

from fastapi import Depends, FastAPI, HTTPException, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from fastapi.testclient import TestClient

OUT = Path(__file__).resolve().parents[2] / "test" / "golden" / "validation" / "endpoints.json"
TOKEN = "{T}"
TODAY = datetime.date(2026, 3, 15)  # the TODAY of test/fixtures/api/finance.ts

app = FastAPI()
bearer = HTTPBearer()


def user(credentials: HTTPAuthorizationCredentials = Depends(bearer)) -> str:
    if credentials.credentials != TOKEN:
        raise HTTPException(
            401,
            "Invalid authentication credentials",
            headers={"WWW-Authenticate": 'Bearer error="invalid_token"'},
        )
    return "u1"


class TimePeriod(str, enum.Enum):
    day = "day"
    week = "week"
    month = "month"
    quarter = "quarter"
    year = "year"


def check_window(request: Request, start: Optional[datetime.date], end: Optional[datetime.date]):
    effective_end = TODAY if end is None or end > TODAY else end
    if start is not None and start > effective_end:
        raise RequestValidationError(
            [
                {
                    "type": "value_error",
                    "loc": ("query", "start_date"),
                    "msg": "Value error, start_date must be on or before end_date",
                    "input": request.query_params.get("start_date"),
                    "ctx": {"error": ValueError("start_date must be on or before end_date")},
                }
            ]
        )


Page = Optional[int]


@app.get("/v1/user")
def profile(u: str = Depends(user)):
    return {"id": u}


@app.get("/v2/users/transactions")
def transactions(
    u: str = Depends(user),
    request: Request,
    transacted_at_from: Optional[datetime.date] = None,
    transacted_at_to: Optional[datetime.date] = None,
    page: Page = Query(None, ge=1),
    page_size: Page = Query(None, ge=10, le=500),
):
    if transacted_at_from and transacted_at_to and transacted_at_from > transacted_at_to:
        message = "transacted_at_from must be on or before transacted_at_to"
        raise RequestValidationError(
            [
                {
                    "type": "value_error",
                    "loc": ("query", "transacted_at_from"),
                    "msg": f"Value error, {message}",
                    "input": request.query_params.get("transacted_at_from"),
                    "ctx": {"error": ValueError(message)},
                }
            ]
        )
    return {}


@app.get("/v1/links")
def links(
    u: str = Depends(user),
    page: Page = Query(None, ge=1),
    page_size: Page = Query(None, ge=10, le=500),
):
    return {}


@app.get("/v1/users/balances")
def balances(u: str = Depends(user)):
    return {}


@app.get("/v1/users/liabilities")
def liabilities(u: str = Depends(user)):
    return {}


@app.get("/v1/users/balance-history")
def balance_history(
    request: Request,
    u: str = Depends(user),
    start_date: Optional[datetime.date] = None,
    end_date: Optional[datetime.date] = None,
    time_period: TimePeriod = TimePeriod.month,
):
    check_window(request, start_date, end_date)
    return {}


@app.get("/v1/users/income")
def income(
    request: Request,
    u: str = Depends(user),
    start_date: Optional[datetime.date] = None,
    end_date: Optional[datetime.date] = None,
):
    check_window(request, start_date, end_date)
    return {}


def cases() -> list[dict]:
    out: list[dict] = []
    auth = {"Authorization": f"Bearer {TOKEN}"}
    headers = [
        None, "", "Bearer", "Bearer ", "Bearer  ", "pat_x", TOKEN, "Basic xyz",
        f"Basic {TOKEN}", f"Token {TOKEN}", f"bearer {TOKEN}", f"BEARER {TOKEN}",
        f"bEaReR {TOKEN}", f"Bearer  {TOKEN}", f"Bearer \t{TOKEN}", f"Bearer {TOKEN} ",
        f"Bearer {TOKEN}\t", f"Bearer\t{TOKEN}", f"Bearer {TOKEN} extra", f"Bearer {TOKEN}x",
        "Bearer pat_x", f"Bearer {TOKEN},Bearer {TOKEN}", f"Bearer:{TOKEN}",
    ]
    for path in [
        "/v1/user", "/v2/users/transactions?page=0", "/v1/users/balance-history?time_period=x",
        "/v1/links", "/v1/users/balances", "/v1/users/liabilities", "/v1/users/income?start_date=x",
    ]:
        for h in headers:
            out.append({"url": path, "headers": {} if h is None else {"Authorization": h}})
    out.append({"url": f"/v1/user?token={TOKEN}&access_token={TOKEN}", "headers": {}})

    ints = [
        "0", "-1", "1", "abc", "1.5", "1.0", "", "%2B1", "+1", "%201", "1_000", "%EF%BC%92",
        "99999999999999999999", "0x10", "1e3", "true", "9", "10", "500", "501", "-0", "00012",
        "%201%20", "1%00", "0.0", "1.", ".5", "10.0", "%09500%0A",
    ]
    for value in ints:
        for name in ["page", "page_size"]:
            for path in ["/v2/users/transactions", "/v1/links"]:
                out.append({"url": f"{path}?{name}={value}", "headers": auth})
    for query in [
        "page=1&page=0", "page=0&page=1", "page_size=9&page_size=10", "page_size=10&page_size=9",
        "page=0&page_size=9&page=abc", "page=x&page_size=y&transacted_at_from=z&transacted_at_to=w",
        "page", "page=1&&page_size", "PAGE=0", "page%5Fsize=9",
        "transacted_at_to=2026-01-01&transacted_at_from=2026-02-01",
        "transacted_at_from=2026-01-01&transacted_at_from=x",
        "transacted_at_from=x&transacted_at_from=2026-01-01",
    ]:
        out.append({"url": f"/v2/users/transactions?{query}", "headers": auth})

    dates = [
        "2026-02-30", "2026-1-1", "20260101", "1700000000", "1773532800", "2026-01-01T00:00:00",
        "2026-01-01T10:00:00", "2026-01-01T00:00:00Z", "2026-01-01%2000:00", "", "x", "2026-13-01",
        "0000-01-01", "2026-01-01x", "%20%202026-01-01", "2026/01/01", "-1", "1e9",
        "2026-01-01T00:00:00.000%2B02:00", "2026-01-01T24:00:00", "2024-02-29", "9999-12-31",
        "10000-01-01", "0", "86400", "86401", "-86400", "1773532800.0", "1773532800.5",
        "2026-01-01T00:00:00.000000001", "2026-01-01t00:00:00", "20260101T000000",
    ]
    for value in dates:
        for name in ["transacted_at_from", "transacted_at_to"]:
            out.append({"url": f"/v2/users/transactions?{name}={value}", "headers": auth})
        for name in ["start_date", "end_date"]:
            for path in ["/v1/users/balance-history", "/v1/users/income"]:
                out.append({"url": f"{path}?{name}={value}", "headers": auth})
    for value in ["day", "Day", "DAY", "", "x", "month%20", "weekly", "quarter", "year", "week", "%64ay"]:
        out.append({"url": f"/v1/users/balance-history?time_period={value}", "headers": auth})
    for query in [
        "start_date=2026-03-16", "start_date=2026-03-15", "start_date=2026-03-02&end_date=2026-03-01",
        "start_date=2026-03-02&end_date=x", "start_date=2026-03-02&end_date=2026-03-01&time_period=x",
        "start_date=2026-03-02&start_date=2026-03-01&end_date=2026-03-01",
        "start_date=2026-03-01&start_date=2026-03-02&end_date=2026-03-01",
        "start_date=2027-01-01&end_date=2028-01-01", "start_date=2026-03-16T00:00:00&end_date=2026-03-01",
        "start_date=1773705600&end_date=2026-03-01", "time_period=day&time_period=x",
        "time_period=x&time_period=day", "time_period", "end_date=2030-01-01&start_date=2026-03-15",
    ]:
        out.append({"url": f"/v1/users/balance-history?{query}", "headers": auth})
        out.append({"url": f"/v1/users/income?{query}", "headers": auth})
    return out


def main() -> None:
    client = TestClient(app, raise_server_exceptions=True)
    records = []
    for case in cases():
        response = client.get(case["url"], headers=case["headers"], follow_redirects=False)
        record = {**case, "status": response.status_code}
        if response.status_code != 200:
            record["body"] = response.json()
            record["www_authenticate"] = response.headers.get("www-authenticate")
        records.append(record)
    OUT.write_text(json.dumps(records, indent=1, ensure_ascii=False) + "\n")
    print(f"{len(records)} cases -> {OUT}")


if __name__ == "__main__":
    main()
