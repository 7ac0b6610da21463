#!/usr/bin/env python3
"""Writes the DERIVED SnowFallData fixtures from the real monthly figures beside this script.

No verbatim SnowFallData answer is public. The real monthly figures are
(wsdot_snowfall_monthly_snoqualmie-2023_stevens-2022.csv, see SOURCES.md): per month the
average new snow per reported day and the average depth. This script builds an answer in the
service's documented shape (one object per month: month, monthNum, year, displayOrder,
avgNewSnowfallInches, avgTotalSnowfallInches, dailySnowFall[{day, newDailySnowFall,
totalSnowFall, accumulatedSnowFall}]) whose monthly fields are the CSV's, verbatim, and whose
daily values are made up so that:

- the mean of a month's newDailySnowFall is the CSV's average (exactly, after truncation to six
  decimals, where a number of days and a reading precision make that possible; else within
  0.002 in, with every day of the month reported);
- the mean of a month's totalSnowFall (whole inches) is the CSV's average depth exactly;
- accumulatedSnowFall is the running season total.

Where the exact match needs fewer days than the month has (Stevens, December 2022: 26 of 31;
February 2023: 27 of 28, in thousandths), the month is sparse, as the service's months can be.
The storms' timing is a seeded pseudo-random pattern: only the monthly figures are real.

    python3 derive_snowfall.py      # rewrites DERIVED_wsdot_snowfall_*.json
"""
import calendar
import csv
import json
import math
import random
from pathlib import Path

HERE = Path(__file__).resolve().parent
CSV = HERE / "wsdot_snowfall_monthly_snoqualmie-2023_stevens-2022.csv"
SEASONS = {("11", "2023"): "DERIVED_wsdot_snowfall_snoqualmie_2023-24.json",
           ("10", "2022"): "DERIVED_wsdot_snowfall_stevens_2022-23.json"}


def exact_plan(average, days):
    """(reported days, precision, month sum) whose mean truncates to `average`, or None."""
    for precision in (0.1, 0.001):
        for count in range(days, days - 6, -1):
            low, high = average * count, (average + 1e-6) * count
            steps = math.ceil(low / precision - 1e-9)
            if steps * precision < high - 1e-12:
                return count, precision, round(steps * precision, 3)
    return None


def spread(total, count, precision, rng):
    """`count` non-negative readings of `precision` summing to `total`: a few storms, dry days between."""
    weights = [rng.random() ** 3 if rng.random() < 0.55 else 0.0 for _ in range(count)]
    if sum(weights) == 0:
        weights[count // 2] = 1.0
    scale = total / sum(weights)
    units = [round(w * scale / precision) for w in weights]
    residual = round(total / precision) - sum(units)
    order = sorted(range(count), key=lambda i: -units[i])
    i = 0
    while residual != 0:
        index = order[i % count]
        step = 1 if residual > 0 else -1
        if units[index] + step >= 0:
            units[index] += step
            residual -= step
        i += 1
    return [round(u * precision, 3) for u in units]


def depths(average, count, rng, start, end):
    """`count` whole-inch depths from about `start` to about `end` whose mean is exactly `average`."""
    if average == 0:
        return [0] * count
    curve = [start + (end - start) * (i + 0.5) / count + rng.uniform(-2, 2) for i in range(count)]
    shift = average - sum(curve) / count
    values = [max(0, round(v + shift)) for v in curve]
    residual = average * count - sum(values)
    # What rounding left over, a whole inch each on days spread over the month.
    i = 0
    while residual != 0:
        index = (i * 7) % count
        step = 1 if residual > 0 else -1
        if values[index] + step >= 0:
            values[index] += step
            residual -= step
        i += 1
    return values


def main():
    rows = list(csv.DictReader(CSV.open(newline="")))
    for (pass_num, season), name in SEASONS.items():
        months = [r for r in rows if r["pass_num"] == pass_num and r["pass_year"] == season]
        rng = random.Random(f"{pass_num}-{season}")
        accumulated = 0.0
        answer = []
        averages = [int(r["avg_tot_snowfall_in"]) for r in months]
        for order, row in enumerate(months, start=1):
            year, month = int(row["year"]), int(row["mo_num"])
            average = float(row["avg_new_snowfall_in"])
            days = calendar.monthrange(year, month)[1]
            plan = exact_plan(average, days) or (days, 0.1, round(average * days, 1))
            count, precision, total = plan
            reported = sorted(rng.sample(range(1, days + 1), count)) if count < days else list(range(1, days + 1))
            new = spread(total, count, precision, rng)
            index = order - 1
            before = averages[index - 1] if index > 0 else 0
            after = averages[index + 1] if index + 1 < len(averages) else averages[index]
            depth = depths(averages[index], count, rng, (before + averages[index]) / 2, (averages[index] + after) / 2)
            daily = []
            for day, snow, deep in zip(reported, new, depth):
                accumulated = round(accumulated + snow, 3)
                daily.append({"day": day, "newDailySnowFall": snow, "totalSnowFall": deep, "accumulatedSnowFall": accumulated})
            answer.append({
                "month": row["month"], "monthNum": month, "year": year, "displayOrder": order,
                "avgNewSnowfallInches": average, "avgTotalSnowfallInches": averages[index],
                "dailySnowFall": daily,
            })
        text = json.dumps(answer, separators=(",", ":")) + "\n"
        (HERE / name).write_text(text)
        print(f"{name}: {len(answer)} months, {sum(len(m['dailySnowFall']) for m in answer)} days, season total {accumulated} in")


if __name__ == "__main__":
    main()
