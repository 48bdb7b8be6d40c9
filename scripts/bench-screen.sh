#!/usr/bin/env bash
# Production screening under load, two release servers side by side in one run
# (issue #45's goal: "Screening p99 <= 20 ms on the full OFAC copy under load on
# loopback, measured side by side with today's in one run").
# Each binary gets a server of its own on loopback, with its own fresh SQLite
# database, OFAC's SDN copy (conformance/data/ofac-sdn-2022-01) imported into
# production, an admin key and a production tenant. Both are started once and
# warmed up; then wrk (Debian's) drives POST /v1/sanctions/screen through
# scripts/bench-screen.lua, each request a new user (a unique user_id: none is
# a replay), in rounds that alternate the servers (BEFORE, AFTER, then AFTER,
# BEFORE, ...), so that both see the same load from whatever else the machine runs.
#
#   scripts/bench-screen.sh --before PATH --after PATH [--rounds N] [--seconds S] [--connections C]
#                           [--threads T] [--warmup S] [--names N]
#
# The names (seeded, the same for both servers): half ordinary names of many
# locales (random date of birth 1950-2005), half real OFAC individuals from
# sdn.csv ("LAST, First" read as first and last name), a third of those with
# an extra given name, half of them with the entry's own date of birth and
# nationality (so most are hits: a hit holds the user's transactions and opens
# a case, writes a screening of a clear name does not make), half with a random one.
#
# Defaults: 3 rounds of 20 s, 8 connections, 2 wrk threads, 5 s of warm-up.
# Nothing here runs in the test command: figures go to docs/benchmarks.md.
set -euo pipefail
cd "$(dirname "$0")/.."

before="" after="" rounds=3 seconds=20 connections=8 threads=2 warmup=5 count=4000
while [ $# -gt 0 ]; do
  case "$1" in
    --before) before="$2"; shift 2 ;;
    --after) after="$2"; shift 2 ;;
    --rounds) rounds="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --connections) connections="$2"; shift 2 ;;
    --threads) threads="$2"; shift 2 ;;
    --warmup) warmup="$2"; shift 2 ;;
    --names) count="$2"; shift 2 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done
[ -n "$before" ] && [ -n "$after" ] || { echo "usage: scripts/bench-screen.sh --before PATH --after PATH [--rounds N] [--seconds S] [--connections C]" >&2; exit 2; }
for bin in "$before" "$after"; do [ -x "$bin" ] || { echo "not an executable: $bin" >&2; exit 1; }; done
command -v wrk >/dev/null || { [ "$(id -u)" = 0 ] && apt-get install -y -q wrk >/dev/null; } || { echo "wrk is needed: apt-get install wrk" >&2; exit 1; }
lists=conformance/data/ofac-sdn-2022-01
script="$PWD/scripts/bench-screen.lua"

work=$(mktemp -d)
declare -A pid=() base=() key=()
cleanup() {
  for label in "${!pid[@]}"; do kill "${pid[$label]}" 2>/dev/null || true; wait "${pid[$label]}" 2>/dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT

# The names, one JSON fragment a line (first_name, last_name, date_of_birth, nationality).
python3 - "$lists/sdn.csv" "$count" >"$work/names.jsonl" <<'PY'
import csv, datetime, json, random, re, sys
rng = random.Random(45)
count = int(sys.argv[2])
ordinary = {  # first names, last names, nationality
    "GB": ("Oliver Amelia Harry Isla Jack Sophie George Emily Thomas Grace".split(), "Smith Jones Taylor Brown Wilson Evans Walker Wright Hughes Clarke".split()),
    "US": ("James Mary Michael Linda Robert Jennifer Tyler Ashley Brandon Megan".split(), "Johnson Williams Miller Davis Anderson Thompson Martinez Robinson Lewis Young".split()),
    "ES": ("José María Javier Lucía Alejandro Carmen Pablo Marta Álvaro Elena".split(), "García Fernández González Rodríguez López Martínez Sánchez Pérez Gómez Ruiz".split()),
    "MX": ("Juan Guadalupe Luis Fernanda Miguel Ximena Jorge Valeria Diego Camila".split(), "Hernández Ramírez Flores Torres Vázquez Castillo Morales Ortiz Cruz Reyes".split()),
    "DE": ("Lukas Anna Jonas Lea Felix Marie Maximilian Sophie Jürgen Käthe".split(), "Müller Schmidt Schneider Fischer Weber Meyer Wagner Becker Schäfer Koch".split()),
    "FR": ("Louis Chloé Hugo Camille Théo Léa Mathieu Manon Étienne Inès".split(), "Martin Bernard Dubois Thomas Robert Richard Petit Durand Lefèvre Moreau".split()),
    "IT": ("Giuseppe Giulia Francesco Chiara Alessandro Sofia Lorenzo Martina Matteo Aurora".split(), "Rossi Russo Ferrari Esposito Bianchi Romano Colombo Ricci Marino Greco".split()),
    "PL": ("Jakub Zuzanna Łukasz Julia Mateusz Maja Krzysztof Agnieszka Piotr Małgorzata".split(), "Nowak Kowalski Wiśniewski Wójcik Kowalczyk Kamiński Lewandowski Zieliński Szymański Woźniak".split()),
    "SE": ("Erik Astrid Lars Ingrid Oskar Elsa Nils Maja Björn Saga".split(), "Andersson Johansson Karlsson Nilsson Eriksson Larsson Olsson Persson Svensson Gustafsson".split()),
    "NO": ("Ole Ingrid Magnus Nora Sindre Tuva Håkon Sølvi Jonas Emma".split(), "Hansen Johansen Olsen Larsen Andersen Pedersen Nilsen Kristiansen Ødegaard Berg".split()),
    "BR": ("João Ana Gabriel Beatriz Lucas Larissa Rafael Juliana Thiago Letícia".split(), "Silva Santos Oliveira Souza Lima Pereira Carvalho Ferreira Almeida Ribeiro".split()),
    "TR": ("Mehmet Ayşe Mustafa Fatma Emre Zeynep Burak Elif Can Özge".split(), "Yılmaz Kaya Demir Şahin Çelik Yıldız Aydın Öztürk Arslan Doğan".split()),
    "RU": ("Dmitri Olga Sergei Natalia Andrei Tatiana Alexei Ekaterina Mikhail Svetlana".split(), "Smirnov Ivanova Kuznetsov Popova Sokolov Lebedeva Kozlov Novikova Morozov Volkova".split()),
    "NG": ("Chinedu Ngozi Emeka Adaeze Oluwaseun Funmilayo Tunde Chiamaka Ifeanyi Yetunde".split(), "Okafor Adeyemi Okonkwo Balogun Eze Nwosu Adebayo Obi Olawale Chukwu".split()),
    "IN": ("Aarav Priya Rohan Ananya Vikram Kavya Arjun Sneha Rahul Divya".split(), "Sharma Patel Singh Kumar Gupta Reddy Iyer Nair Mehta Joshi".split()),
    "CN": ("Wei Fang Jun Li Hao Xiu Lei Mei Jian Yan".split(), "Wang Li Zhang Liu Chen Yang Huang Zhao Wu Zhou".split()),
    "JP": ("Haruto Yui Sota Aoi Ren Hina Yuto Sakura Riku Mio".split(), "Sato Suzuki Takahashi Tanaka Watanabe Ito Yamamoto Nakamura Kobayashi Kato".split()),
    "KR": ("Min-jun Seo-yeon Ji-ho Ha-eun Do-yun Ji-woo Hyun-woo Soo-ah Jae-won Yu-na".split(), "Kim Lee Park Choi Jung Kang Cho Yoon Jang Lim".split()),
    "VN": ("Minh Lan Huy Thảo Tuấn Hương Đức Linh Quang Ngọc".split(), "Nguyễn Trần Lê Phạm Hoàng Huỳnh Phan Vũ Võ Đặng".split()),
    "EG": ("Omar Nour Youssef Mariam Karim Salma Tarek Yasmin Hany Dina".split(), "Mansour Haddad Farouk Saleh Nasser Ibrahim Khalil Fathy Shawky Zaki".split()),
}
extra_given = "Maria John Ali Ivan Jose Anna Ahmed Peter Marie Juan".split()
countries = {"Iran": "IR", "Syria": "SY", "Lebanon": "LB", "Russia": "RU", "Burma": "MM", "Afghanistan": "AF", "Pakistan": "PK",
             "Iraq": "IQ", "Mexico": "MX", "Colombia": "CO", "Venezuela": "VE", "Cuba": "CU", "Egypt": "EG", "Saudi Arabia": "SA",
             "Yemen": "YE", "China": "CN", "Korea, North": "KP", "Ukraine": "UA", "Belarus": "BY", "Somalia": "SO", "Sudan": "SD",
             "Libya": "LY", "Jordan": "JO", "Kuwait": "KW", "Turkey": "TR", "Nicaragua": "NI", "Zimbabwe": "ZW", "Bangladesh": "BD"}
months = {m: i + 1 for i, m in enumerate("Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split())}

def random_dob():
    return (datetime.date(1950, 1, 1) + datetime.timedelta(days=rng.randrange(55 * 365))).isoformat()

def listed_dob(remarks):
    m = re.search(r"DOB (?:circa )?(\d{2}) (\w{3}) (\d{4})", remarks)
    if m and m.group(2) in months:
        return f"{m.group(3)}-{months[m.group(2)]:02d}-{m.group(1)}"
    m = re.search(r"DOB (?:circa )?(?:\w{3} )?(\d{4})", remarks)
    return f"{m.group(1)}-01-01" if m else None

def cased(words):  # LAPSHOV -> Lapshov, AL-ZOMOR -> Al-Zomor
    return " ".join("-".join(p[:1].upper() + p[1:].lower() for p in w.split("-")) for w in words.split())

individuals = []
for row in csv.reader(open(sys.argv[1], encoding="latin-1")):
    if len(row) > 11 and row[2].strip() == "individual" and ", " in row[1]:
        last, first = row[1].split(", ", 1)
        individuals.append((first.strip(), cased(last.strip()), row[11]))
lines = []
for i in range(count):
    if i % 2 == 0:
        nationality = rng.choice(sorted(ordinary))
        firsts, lasts = ordinary[nationality]
        first, last, dob = rng.choice(firsts), rng.choice(lasts), random_dob()
    else:
        first, last, remarks = rng.choice(individuals)
        if rng.random() < 1 / 3:
            first = f"{first} {rng.choice(extra_given)}"
        m = re.search(r"nationality ([^;.]*)", remarks)
        dob = listed_dob(remarks)
        if rng.random() < 0.5 and dob:
            nationality = countries.get(m.group(1).strip(), rng.choice(sorted(countries.values()))) if m else rng.choice(sorted(countries.values()))
        else:
            dob, nationality = random_dob(), rng.choice(sorted(countries.values()))
    lines.append(json.dumps({"first_name": first, "last_name": last, "date_of_birth": dob, "nationality": nationality}, ensure_ascii=False)[1:-1])
rng.shuffle(lines)
print("\n".join(lines))
PY

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
field() { python3 -c "import json,sys; d=json.load(sys.stdin); print(d.get(\"$1\") or sys.exit(str(d)))"; }
post() { curl -sS --fail-with-body -X POST "$1$2" -H "authorization: Bearer $3" -H 'content-type: application/json' -d "$4"; }

# A server of BINARY labelled LABEL: its database, the OFAC list, a production tenant.
start() {
  local label=$1 bin=$2 database="sqlite://$work/$1.db" port t0 admin tenant
  port=$(free_port)
  base[$label]="http://127.0.0.1:$port"
  t0=$(date +%s.%N)
  "$bin" lists import --environment production --format ofac-csv --database "$database" "$lists" >"$work/$label.import" 2>&1 ||
    { echo "$label: the import failed:" >&2; cat "$work/$label.import" >&2; exit 1; }
  echo "$label: $("$bin" rules | tr '\n' ' '); OFAC imported in $(python3 -c "import time; print(f'{time.time() - $t0:.1f}')") s"
  admin=$("$bin" admin-key create --environment production --database "$database")
  head -c 32 /dev/urandom | base64 >"$work/$label.secret"
  "$bin" serve --listen "127.0.0.1:$port" --database "$database" --secret-key-file "$work/$label.secret" >"$work/$label.log" 2>&1 &
  pid[$label]=$!
  for _ in $(seq 1 300); do curl -sf "${base[$label]}/v1/health" >/dev/null && break; sleep 0.1; done
  curl -sf "${base[$label]}/v1/health" >/dev/null || { echo "$label: the server did not start:" >&2; cat "$work/$label.log" >&2; exit 1; }
  tenant=$(post "${base[$label]}" /v1/admin/tenants "$admin" '{"name":"bench","environment":"production","rate_limit_per_minute":1000000}')
  key[$label]=$(echo "$tenant" | field api_key)
  # one clear name and one listed individual with the entry's own date of birth
  post "${base[$label]}" /v1/sanctions/screen "${key[$label]}" '{"user_id":"check-clear","first_name":"Ann","last_name":"Lee","date_of_birth":"1990-01-01","nationality":"GB","email":"check-clear@example.com"}' | grep -q '"status":"clear"' ||
    { echo "$label: Ann Lee is not clear" >&2; exit 1; }
  post "${base[$label]}" /v1/sanctions/screen "${key[$label]}" '{"user_id":"check-hit","first_name":"Pavel Vladimirovich","last_name":"Lapshov","date_of_birth":"1976-07-07","nationality":"RU","email":"check-hit@example.com"}' | grep -q '"status":"hit_review_pending"' ||
    { echo "$label: the listed Pavel Vladimirovich Lapshov is not a hit" >&2; exit 1; }
}
start before "$before"
start after "$after"

cpu_ticks() { awk '{print $14 + $15}' "/proc/${pid[$1]}/stat"; }   # the server's user + system time
run() { # label, round (0: the warm-up), seconds
  local label=$1 round=$2 load line t0 t1
  load=$(cut -d' ' -f1 /proc/loadavg)
  t0=$(cpu_ticks "$label")
  line=$(wrk -t"$threads" -c"$connections" -d"$3s" --timeout 10s -s "$script" "${base[$label]}/v1/sanctions/screen" -- \
    "$work/names.jsonl" "${key[$label]}" "r$round-$(date +%s%N)" | grep '^RESULT') ||
    { echo "$label: wrk gave no result" >&2; exit 1; }
  t1=$(cpu_ticks "$label")
  [ "$round" = 0 ] || echo "$label $round ${line#RESULT } $((t1 - t0)) $load" >>"$work/results"
  echo "$label round $round: ${line#RESULT } (server CPU ticks $((t1 - t0)), load $load)"
}
echo "==> names: $(wc -l <"$work/names.jsonl") ($count: half ordinary, half OFAC individuals); warm-up ${warmup}s each"
run before 0 "$warmup"
run after 0 "$warmup"
echo "==> wrk -t$threads -c$connections -d${seconds}s, $rounds rounds alternating (odd: before then after; even: after then before)"
echo "    columns: req/s p50 p90 p99 max (ms) errors non-2xx replays clear hit other"
for r in $(seq 1 "$rounds"); do
  if [ $((r % 2)) = 1 ]; then run before "$r" "$seconds"; run after "$r" "$seconds"
  else run after "$r" "$seconds"; run before "$r" "$seconds"; fi
done
for label in before after; do
  grep -qi '"level":"error"\|panicked' "$work/$label.log" && { echo "$label: errors in the server's log:"; grep -i '"level":"error"\|panicked' "$work/$label.log" | head -5; }
done

python3 - "$work/results" "$seconds" "$connections" <<'PY'
import os, statistics, sys
seconds = float(sys.argv[2])
rows = {"before": [], "after": []}
for line in open(sys.argv[1]):
    label, r, rps, p50, p90, p99, mx, errors, non2xx, replays, clear, hit, other, ticks, load = line.split()
    rps = float(rps)
    cpu = int(ticks) / os.sysconf("SC_CLK_TCK") / (rps * seconds) * 1e3  # the server's CPU ms per screening
    rows[label].append(dict(r=int(r), rps=rps, p50=float(p50), p90=float(p90), p99=float(p99), max=float(mx), errors=int(errors),
                            non2xx=int(non2xx), replays=int(replays), clear=int(clear), hit=int(hit), other=int(other), cpu=cpu, load=float(load)))
print(f"\n| round | server | req/s | p50 ms | p90 ms | p99 ms | max ms | errors | non-2xx | replays | hits | server CPU ms/screening | load avg |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
for r in sorted({x["r"] for x in rows["before"]}):
    for label in ("before", "after"):
        for x in rows[label]:
            if x["r"] == r:
                total = x["clear"] + x["hit"] + x["other"]
                print(f"| {r} | {label} | {x['rps']:.1f} | {x['p50']:.2f} | {x['p90']:.2f} | {x['p99']:.2f} | {x['max']:.1f} | {x['errors']} | {x['non2xx']} | {x['replays']} | "
                      f"{x['hit']} ({100 * x['hit'] / max(total, 1):.0f}%) | {x['cpu']:.2f} | {x['load']:.2f} |")
med = {label: {k: statistics.median(x[k] for x in rows[label]) for k in ("rps", "p50", "p90", "p99", "cpu")} for label in rows}
print("\n| median of rounds | req/s | p50 ms | p90 ms | p99 ms | server CPU ms/screening |")
print("|---|---|---|---|---|---|")
for label in ("before", "after"):
    m = med[label]
    print(f"| {label} | {m['rps']:.1f} | {m['p50']:.2f} | {m['p90']:.2f} | {m['p99']:.2f} | {m['cpu']:.2f} |")
b, a = med["before"], med["after"]
print(f"| after / before | {a['rps'] / b['rps']:.2f} | {a['p50'] / b['p50']:.2f} | {a['p90'] / b['p90']:.2f} | {a['p99'] / b['p99']:.2f} | {a['cpu'] / b['cpu']:.2f} |")
worst = max(x["p99"] for x in rows["after"])
print(f"\ngoal (p99 <= 20 ms, wrk -c{sys.argv[3]}): after's worst round p99 {worst:.2f} ms: {'met' if worst <= 20 else 'NOT met'}")
PY
