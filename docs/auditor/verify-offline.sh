#!/bin/sh
# Verifies a Compliance Workbench evidence bundle with stock tools only: unzip, sha256sum, openssl (3.x) and
# python3 (standard library). Nothing from the producer is trusted except the public key and TSA root YOU
# obtained out of band. Read docs/auditor/VERIFY.md for what each step proves.
#
#   sh verify-offline.sh BUNDLE.zip PUBLIC_KEY.pem [TSA_ROOT.pem]
#
# Exit 0: valid. Exit 1: invalid (each failed check is printed). Exit 2: usage error or a missing tool.
set -u
LC_ALL=C
export LC_ALL

if [ $# -lt 2 ] || [ $# -gt 3 ]; then
  echo "usage: $0 BUNDLE.zip PUBLIC_KEY.pem [TSA_ROOT.pem]" >&2
  exit 2
fi
BUNDLE=$1
PUBKEY=$2
TSAROOT=${3:-}
for tool in unzip sha256sum openssl python3 head; do
  command -v "$tool" >/dev/null 2>&1 || { echo "missing tool: $tool" >&2; exit 2; }
done
for f in "$BUNDLE" "$PUBKEY" ${TSAROOT:+"$TSAROOT"}; do
  [ -f "$f" ] && [ -r "$f" ] || { echo "not a readable file: $f" >&2; exit 2; }
done

WORK=$(mktemp -d) || exit 2
trap 'rm -rf "$WORK"' EXIT INT TERM
FAILED=0
pass() { printf 'PASS  %s\n' "$1"; }
fail() { printf 'FAIL  %s\n' "$1"; FAILED=1; }
note() { printf '      %s\n' "$1"; }
finish() {
  if [ "$FAILED" -eq 0 ]; then echo "RESULT: VALID"; exit 0; fi
  echo "RESULT: INVALID"
  exit 1
}

# ---------------------------------------------------------------------------------------------------------
# The python helper: ZIP structure, RFC 8785 canonical JSON, the JWS layout, record hashes and chain links.
# ---------------------------------------------------------------------------------------------------------
cat >"$WORK/helper.py" <<'PY'
import base64, hashlib, json, math, os, re, struct, sys, unicodedata, zipfile

def die(msg):
    print(msg)
    sys.exit(1)

# ---- RFC 8785 (JCS) ----------------------------------------------------------------------------------
def es_number(x):
    """ECMAScript Number::toString of a double (RFC 8785 section 3.2.2.3)."""
    if isinstance(x, bool):
        raise ValueError("bool is not a number")
    if isinstance(x, int):
        if abs(x) < 2 ** 53:
            return str(x)
        x = float(x)
    if math.isnan(x) or math.isinf(x):
        raise ValueError("NaN/Infinity are not JSON")
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    s = repr(abs(x))
    mant, exp = (s.split("e") + ["0"])[:2]
    exp = int(exp)
    ip, fp = (mant.split(".") + [""])[:2]
    if ip.strip("0") == "":
        stripped = fp.lstrip("0")
        n = exp - (len(fp) - len(stripped))
        digits = stripped
    else:
        ip = ip.lstrip("0")
        n = len(ip) + exp
        digits = ip + fp
    digits = digits.rstrip("0")
    k = len(digits)
    if k <= n <= 21:
        out = digits + "0" * (n - k)
    elif 0 < n <= 21:
        out = digits[:n] + "." + digits[n:]
    elif -6 < n <= 0:
        out = "0." + "0" * (-n) + digits
    else:
        e = n - 1
        out = digits[0] + ("." + digits[1:] if k > 1 else "") + "e" + ("+" if e >= 0 else "-") + str(abs(e))
    return sign + out

ESC = {'"': '\\"', "\\": "\\\\", "\b": "\\b", "\f": "\\f", "\n": "\\n", "\r": "\\r", "\t": "\\t"}

def jcs_string(s):
    out = []
    for ch in s:
        o = ord(ch)
        if 0xD800 <= o <= 0xDFFF:
            raise ValueError("lone surrogate")
        if ch in ESC:
            out.append(ESC[ch])
        elif o < 0x20:
            out.append("\\u%04x" % o)
        else:
            out.append(ch)
    return '"' + "".join(out) + '"'

def jcs(v):
    if v is None:
        return "null"
    if v is True:
        return "true"
    if v is False:
        return "false"
    if isinstance(v, (int, float)):
        return es_number(v)
    if isinstance(v, str):
        return jcs_string(v)
    if isinstance(v, list):
        return "[" + ",".join(jcs(i) for i in v) + "]"
    if isinstance(v, dict):
        keys = sorted(v.keys(), key=lambda k: k.encode("utf-16-be", "surrogatepass"))
        return "{" + ",".join(jcs_string(k) + ":" + jcs(v[k]) for k in keys) + "}"
    raise ValueError("not JSON")

def no_duplicates(pairs):
    d = {}
    for k, v in pairs:
        if k in d:
            raise ValueError("duplicate key " + k)
        d[k] = v
    return d

def deeper_than(v, limit=64):
    """Objects/arrays nested deeper than limit, the outer one at level 1 (the product's ingest limit)."""
    stack = [(v, 1)]
    while stack:
        item, d = stack.pop()
        if isinstance(item, (dict, list)):
            if d > limit:
                return True
            stack.extend((x, d + 1) for x in (item.values() if isinstance(item, dict) else item))
    return False

def load_json(text):
    return json.loads(text, object_pairs_hook=no_duplicates, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))

def read_json(path):
    with open(path, "rb") as f:
        return load_json(f.read().decode("utf-8"))

def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")

def unb64url(text):
    if not re.fullmatch(r"[A-Za-z0-9_-]*", text):
        raise ValueError("not base64url")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))

def jws_header(part):
    """The protected header, only as the product writes it: {"alg":"EdDSA","kid":...} in JCS (no crit/b64)."""
    header = load_json(unb64url(part).decode("utf-8"))
    if not isinstance(header.get("kid"), str) or part != b64url(jcs({"alg": "EdDSA", "kid": header["kid"]}).encode()):
        die("JWS header is not exactly {alg: EdDSA, kid} in canonical form")
    return header

def sha256hex(data):
    return hashlib.sha256(data).hexdigest()

# ---- 1. archive structure ------------------------------------------------------------------------------
# Portable segments (as svc verify): no trailing dot (Windows drops it), no Windows device name.
SEGMENT = r"(?!(?i:con|prn|aux|nul|com[0-9]|lpt[0-9])(?:\.|/|$))[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9_-])?"
SAFE_NAME = re.compile(r"^%s(/%s)*$" % (SEGMENT, SEGMENT))

def cmd_listing(zip_path, unzip_names_file, out_names):
    data = open(zip_path, "rb").read()
    problems = []
    eocd = data.rfind(b"PK\x05\x06")
    if eocd < 0 or len(data) - eocd < 22:
        die("no end-of-central-directory record")
    (_, disk, cd_disk, n_disk, n_total, cd_size, cd_off, clen) = struct.unpack("<IHHHHIIH", data[eocd:eocd + 22])
    if eocd + 22 + clen != len(data):
        problems.append("bytes after the end-of-central-directory record")
    if disk or cd_disk or n_disk != n_total:
        problems.append("multi-disk archive")
    end = eocd
    # ZIP64 end record + locator (the builder writes them past 4 GiB; zip -fz always): only right before the EOCD.
    if data[eocd - 20:eocd - 16] == b"PK\x06\x07":
        (_, z_disk, z_off, z_disks) = struct.unpack("<IIQI", data[eocd - 20:eocd])
        rec = data[z_off:z_off + 56] if z_off + 56 == eocd - 20 else b""
        if len(rec) != 56 or rec[:4] != b"PK\x06\x06" or z_disk or z_disks != 1:
            die("malformed ZIP64 end record or locator")
        (_, rsize, _, _, disk64, cd_disk64, n_disk64, n_total64, cd_size64, cd_off64) = struct.unpack("<IQHHIIQQQQ", rec)
        if rsize != 44 or disk64 or cd_disk64 or n_disk64 != n_total64:
            problems.append("malformed or multi-disk ZIP64 end record")
        if any(small not in (mx, big) for small, big, mx in ((n_total, n_total64, 0xFFFF), (cd_size, cd_size64, 0xFFFFFFFF), (cd_off, cd_off64, 0xFFFFFFFF))):
            problems.append("EOCD and ZIP64 end record disagree")
        n_total, cd_size, cd_off, end = n_total64, cd_size64, cd_off64, z_off
    if cd_off + cd_size != end:
        problems.append("central directory size/offset do not end at the EOCD")
    if not data.startswith(b"PK\x03\x04"):
        problems.append("bytes before the first local header")
    try:
        zf = zipfile.ZipFile(zip_path)
    except zipfile.BadZipFile as e:
        die("not a readable ZIP: %s" % e)
    infos = zf.infolist()
    if len(infos) != n_total:
        problems.append("EOCD counts %d entries, the central directory holds %d" % (n_total, len(infos)))
    seen = {}
    files = []
    for info in infos:
        name = info.filename
        if info.flag_bits & 0x1:
            problems.append("encrypted entry %r" % name)
        if info.compress_type not in (zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED):
            problems.append("entry %r uses compression method %d" % (name, info.compress_type))
        mode = (info.external_attr >> 16) & 0o170000
        if mode == 0o120000:
            problems.append("symlink entry %r" % name)
        i, ex = 0, info.extra
        while i + 4 <= len(ex):
            eid, elen = struct.unpack("<HH", ex[i:i + 4])
            if eid == 0x7075:
                problems.append("Info-ZIP Unicode Path field on %r" % name)
            i += 4 + elen
        if name.endswith("/"):
            if info.file_size != 0 or not SAFE_NAME.match(name[:-1]):
                problems.append("directory entry %r carries data or has an unsafe name" % name)
            continue
        if not SAFE_NAME.match(name) or ".." in name.split("/"):
            problems.append("unsafe entry name %r" % name)
        key = unicodedata.normalize("NFC", name).casefold()
        if key in seen:
            problems.append("duplicate entry name %r (same as %r after NFC and case folding)" % (name, seen[key]))
        seen[key] = name
        files.append(name)
    unzip_names = [n for n in open(unzip_names_file, encoding="utf-8", errors="replace").read().split("\n") if n and not n.endswith("/")]
    if sorted(unzip_names) != sorted(files):
        problems.append("unzip and python zipfile see different entries: %s vs %s" % (sorted(unzip_names), sorted(files)))
    # Each local header must agree with its central-directory entry (name and sizes), regions must not overlap.
    regions = []
    for info in infos:
        off = info.header_offset
        head = data[off:off + 30]
        if len(head) < 30 or head[:4] != b"PK\x03\x04":
            problems.append("entry %r has no local header at its offset" % info.filename)
            continue
        nlen, xlen = struct.unpack("<HH", head[26:30])
        if data[off + 30:off + 30 + nlen] != info.orig_filename.encode("utf-8" if info.flag_bits & 0x800 else "cp437"):
            problems.append("local header name differs for %r" % info.filename)
        start = off + 30 + nlen + xlen
        regions.append((off, start + info.compress_size, info.filename))
    regions.sort()
    for (a0, a1, an), (b0, b1, bn) in zip(regions, regions[1:]):
        if b0 < a1:
            problems.append("entries %r and %r overlap" % (an, bn))
    if problems:
        for p in problems[:20]:
            print(p)
        sys.exit(1)
    with open(out_names, "w") as f:
        f.write("\n".join(files) + "\n")
    print("%d files, no duplicates after NFC/casefold, unzip and zipfile agree" % len(files))

# ---- 2. manifest ----------------------------------------------------------------------------------------
SIGNING = {"manifest.json", "attestation.json", "rfc3161_timestamp.tsr"}
KEYS = ["score_records", "bias_reports", "prri_records", "drift_events", "pii_detections", "gate_evaluations"]

BUNDLE_ID = re.compile(r"^cec-[0-9A-HJKMNP-TV-Z]{26}$")
HMAC = re.compile(r"^hmac-sha256:[0-9a-f]{64}$")

def is_nat(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0

def is_str(v, pattern=None):
    return isinstance(v, str) and (pattern is None or pattern.match(v) is not None)

def manifest_ok(m):
    """The shape svc verify's schema gives manifest.json (core/cec/manifest.ts)."""
    d, c, k, e = (m.get(x) for x in ("date_range", "record_counts", "key_ids", "entries"))
    return (m.get("schema_version") == 1 and is_nat(m["schema_version"]) and is_str(m.get("bundle_id"), BUNDLE_ID)
            and is_str(m.get("project_id")) and "org_id" in m and (m["org_id"] is None or is_str(m["org_id"]))
            and isinstance(d, dict) and is_str(d.get("from")) and is_str(d.get("to"))
            and isinstance(c, dict) and all(is_nat(c.get(key)) for key in KEYS) and is_nat(m.get("total_records"))
            and isinstance(m.get("frameworks"), list) and all(is_str(f) for f in m["frameworks"])
            and is_str(m.get("generated_at")) and isinstance(k, dict) and is_str(k.get("hmac")) and is_str(k.get("ed25519"))
            and isinstance(e, dict) and all(isinstance(v, dict) and is_str(v.get("sha256"), HEX64) and is_nat(v.get("size")) for v in e.values())
            and is_str(m.get("hmac"), HMAC))

def attestation_ok(a):
    """The shape svc verify's schema gives attestation.json (core/cec/attestation.ts)."""
    s, j = a.get("signer"), a.get("jws")
    return (a.get("schema_version") == 2 and is_nat(a["schema_version"])
            and all(is_str(a.get(x)) for x in ("bundle_id", "project_id", "generated_at"))
            and is_str(a.get("manifest_sha256"), HEX64) and a.get("timestamp_kind") in ("rfc3161", "stub")
            and isinstance(s, dict) and is_str(s.get("product")) and is_str(s.get("hmac_key_id"))
            and isinstance(j, dict) and j.get("alg") == "EdDSA" and is_str(j.get("kid"))
            and is_str(j.get("compact")) and len(j["compact"]) <= 4096 and is_str(a.get("hmac"), HMAC))

def read_signed(path, ok):
    """A signed JSON entry: its bytes exactly RFC 8785 (one reading), of the shape svc verify expects."""
    name = os.path.basename(path)
    value = read_json(path)
    if not isinstance(value, dict) or not ok(value):
        die("%s does not have the expected structure" % name)
    if open(path, "rb").read() != jcs(value).encode("utf-8"):
        die("%s is not in RFC 8785 canonical form" % name)
    return value

def cmd_manifest(manifest_path, names_file, out_plan, out_sums):
    m = read_signed(manifest_path, manifest_ok)
    names = [n for n in open(names_file).read().split("\n") if n]
    entries = m["entries"]
    problems = []
    for n in names:
        if n not in SIGNING and n not in entries:
            problems.append("entry %r is not listed in the manifest" % n)
    for n in entries:
        if n not in names:
            problems.append("manifest lists %r but the archive lacks it" % n)
        if not SAFE_NAME.match(n) or n in SIGNING:
            problems.append("manifest lists an unsafe name %r" % n)
    for k in KEYS:
        if k + "/records.ndjson" not in entries:
            problems.append("manifest does not list %s/records.ndjson" % k)
    for n in SIGNING:
        if n not in names:
            problems.append("%s is missing" % n)
    if problems:
        for p in problems[:20]:
            print(p)
        sys.exit(1)
    with open(out_plan, "w") as plan, open(out_sums, "w") as sums:
        for n, e in sorted(entries.items()):
            plan.write("%d %s\n" % (e["size"], n))
            sums.write("%s  %s\n" % (e["sha256"], n))
    print("every file is listed and every listed entry is present (%d entries)" % len(entries))

# ---- 3. Ed25519 JWS --------------------------------------------------------------------------------------
SPKI_ED25519 = bytes.fromhex("302a300506032b6570032100")

def cmd_jws(attestation_path, manifest_path, pubkey_path, outdir):
    att = read_signed(attestation_path, attestation_ok)
    digest = sha256hex(open(manifest_path, "rb").read())
    pem = open(pubkey_path).read()
    body = "".join(l for l in pem.strip().splitlines() if not l.startswith("-----"))
    der = base64.b64decode(body)
    if len(der) != 44 or not der.startswith(SPKI_ED25519):
        die("the public key is not an Ed25519 SPKI PEM")
    thumb = b64url(hashlib.sha256(jcs({"crv": "Ed25519", "kty": "OKP", "x": b64url(der[12:])}).encode()).digest())
    compact = att.get("jws", {}).get("compact", "")
    parts = compact.split(".")
    if len(parts) != 3:
        die("attestation JWS is not compact serialisation")
    header = jws_header(parts[0])
    payload = unb64url(parts[1])
    claim = load_json(payload.decode("utf-8"))
    expected = {"bundle_id": att.get("bundle_id"), "manifest_sha256": digest}
    if "timestamp_kind" in claim:  # attestation schema 2 signs the timestamp kind too
        expected["timestamp_kind"] = claim["timestamp_kind"]
    if payload.decode("utf-8") != jcs(expected):
        die("JWS payload does not state this bundle and manifest digest (%s)" % digest)
    if att.get("manifest_sha256") != digest:
        die("attestation names another manifest digest")
    open(os.path.join(outdir, "jws.input"), "wb").write((parts[0] + "." + parts[1]).encode("ascii"))
    open(os.path.join(outdir, "jws.sig"), "wb").write(unb64url(parts[2]))
    kind = claim.get("timestamp_kind") or att.get("timestamp_kind") or ""
    open(os.path.join(outdir, "timestamp.kind"), "w").write(kind)
    print("key fingerprint (RFC 7638) %s; signature claims kid %s" % (thumb, header.get("kid")))

# ---- 4. stub timestamp ------------------------------------------------------------------------------------
def cmd_stub(tsr_path, manifest_path):
    lines = open(tsr_path, "rb").read().decode("utf-8").split("\n")
    fields = dict(l.split(": ", 1) for l in lines[1:] if ": " in l)
    if fields.get("imprint-sha256") != sha256hex(open(manifest_path, "rb").read()):
        die("stub imprint does not match the manifest digest")
    print("stub over the manifest digest, producer's clock %s: it attests NO time" % fields.get("generated-at"))

# ---- 5. records and chain ------------------------------------------------------------------------------------
ENVELOPE = {"seq", "record_id", "project_id", "schema_key", "timestamp", "recorded_at", "payload", "prev_hash", "hash"}
HEX64 = re.compile(r"^[0-9a-f]{64}$")

def envelope_ok(r):
    """Exactly the hashed fields plus hash, each of its JSON type; seq 1.0 is the number 1 to every reader."""
    if not isinstance(r, dict) or set(r) != ENVELOPE or not isinstance(r["payload"], dict) or deeper_than(r["payload"]):
        return False
    if isinstance(r["seq"], float) and r["seq"].is_integer():
        r["seq"] = int(r["seq"])
    if isinstance(r["seq"], bool) or not isinstance(r["seq"], int) or not 0 < r["seq"] < 2 ** 53:
        return False
    return all(isinstance(r[k], str) for k in ENVELOPE - {"seq", "payload"}) and len(r["prev_hash"]) == len(r["hash"]) == 64

def is_seq(v):
    return is_nat(v) and v > 0

def link_ok(w):
    return (isinstance(w, dict) and set(w) == {"seq", "hash", "prev_hash"} and is_seq(w["seq"])
            and is_str(w["hash"], HEX64) and is_str(w["prev_hash"], HEX64))

def proof_ok(p):
    """The shape svc verify's schema gives chain_proof.json (core/cec/chain-proof.ts)."""
    s, v = p.get("segment", 0), p.get("verification")
    return (p.get("schema_version") == 1 and is_nat(p["schema_version"]) and is_str(p.get("project_id"))
            and is_str(p.get("algorithm")) and isinstance(p.get("witnesses"), list) and all(link_ok(w) for w in p["witnesses"])
            and is_nat(p.get("record_count")) and is_nat(p.get("witness_count"))
            and (s is None or isinstance(s, dict) and is_seq(s.get("first_seq")) and is_seq(s.get("last_seq"))
                 and is_str(s.get("anchor_prev_hash"), HEX64) and is_str(s.get("head_hash"), HEX64))
            and isinstance(v, dict) and isinstance(v.get("valid"), bool) and isinstance(v.get("checked"), int)
            and not isinstance(v["checked"], bool) and isinstance(v.get("errors"), list) and all(is_str(e) for e in v["errors"]))

def cmd_chain(root, manifest_path):
    m = read_json(manifest_path)
    proof = read_json(os.path.join(root, "chain_proof.json"))
    if not isinstance(proof, dict) or not proof_ok(proof):
        die("chain_proof.json does not have the expected structure")
    errors = []
    def err(msg):
        if len(errors) < 20:
            errors.append(msg)
    frm, to = m["date_range"]["from"], m["date_range"]["to"]
    links = []
    counts = {}
    for key in KEYS:
        last = 0
        n = 0
        with open(os.path.join(root, key, "records.ndjson"), "rb") as f:
            for raw in f:
                line = raw.decode("utf-8").rstrip("\n")
                if line == "":  # skipped, as by svc verify: it holds no record either way
                    continue
                try:
                    r = load_json(line)
                except (ValueError, RecursionError) as e:
                    err("%s has a line that is not strict JSON (%s)" % (key, e))
                    continue
                if not envelope_ok(r):
                    err("%s has a record whose envelope is not exactly the hashed fields plus hash" % key)
                    continue
                n += 1
                if r["seq"] <= last:
                    err("%s is not in seq order at %r" % (key, r["seq"]))
                    continue
                last = r["seq"]
                body = {k: v for k, v in r.items() if k != "hash"}
                try:
                    h = sha256hex((str(r["prev_hash"]) + jcs(body)).encode("utf-8"))
                except ValueError as e:
                    err("record seq %d cannot be canonicalised: %s" % (r["seq"], e))
                    continue
                if h != r["hash"]:
                    err("record seq %d hash does not match its content" % r["seq"])
                if r["schema_key"] != key:
                    err("record seq %d is in the wrong folder" % r["seq"])
                if r["project_id"] != m["project_id"]:
                    err("record seq %d belongs to another project" % r["seq"])
                day = str(r["timestamp"])[:10]
                if not (frm <= day <= to):
                    err("record seq %d is outside the date range" % r["seq"])
                links.append((r["seq"], r["prev_hash"], r["hash"], "record"))
        counts[key] = n
        if m["record_counts"].get(key) != n:
            err("%s: manifest counts %r, folder holds %d" % (key, m["record_counts"].get(key), n))
    if m["total_records"] != sum(counts.values()):
        err("manifest totals %r records, its folders hold %d" % (m["total_records"], sum(counts.values())))
    for w in proof["witnesses"]:
        links.append((w["seq"], w["prev_hash"], w["hash"], "witness"))
    links.sort(key=lambda l: l[0])
    seg = proof.get("segment")
    if proof.get("project_id") != m["project_id"]:
        err("chain proof names another project")
    if not proof.get("verification", {}).get("valid"):
        err("the builder reported that the stored chain failed verification")
    if proof.get("record_count") != sum(counts.values()) or proof.get("witness_count") != len(proof["witnesses"]):
        err("chain proof counts do not match the bundle")
    hashes = {}
    if seg is None:
        if links:
            err("proof has no segment but the bundle holds records")
    else:
        prev_hash, expect = seg["anchor_prev_hash"], seg["first_seq"]
        for seq, ph, h, kind in links:
            if seq != expect:
                err("expected seq %d, found %s seq %d" % (expect, kind, seq))
            if ph != prev_hash:
                err("%s seq %d does not link to the previous hash" % (kind, seq))
            if not HEX64.match(str(h)):
                err("%s seq %d has a malformed hash" % (kind, seq))
            hashes[seq] = h
            prev_hash, expect = h, seq + 1
        if expect - 1 != seg["last_seq"] or prev_hash != seg["head_hash"]:
            err("the chain does not end at the segment head (seq %d)" % seg["last_seq"])
    for e in errors:
        print(e)
    if errors:
        sys.exit(1)
    print("%d records re-hashed (RFC 8785) and linked with %d witnesses" % (sum(counts.values()), len(proof["witnesses"])))
    json.dump({"segment": seg, "hashes": {str(k): v for k, v in hashes.items()}}, open(os.path.join(root, ".chain.json"), "w"))

# ---- 6. anchors ------------------------------------------------------------------------------------------------
ANCHOR_TYPE = "svc.audit.anchor.v1"

B64 = re.compile(r"^[A-Za-z0-9+/]*={0,2}$")

def anchor_ok(a):
    return (isinstance(a, dict) and set(a) == {"project_id", "seq", "head_hash", "kind", "token", "created_at"}
            and is_str(a["project_id"]) and 1 <= len(a["project_id"]) <= 128 and is_seq(a["seq"])
            and is_str(a["head_hash"], HEX64) and a["kind"] in ("rfc3161", "ed25519") and is_str(a["token"], B64)
            and len(a["token"]) <= 350000 and is_str(a["created_at"]) and len(a["created_at"]) <= 40)

def anchors_ok(doc):
    """The shape svc verify's strict schema gives anchors.json (core/cec/anchors-file.ts)."""
    return (isinstance(doc, dict) and set(doc) == {"schema_version", "project_id", "statement", "anchors", "bridge"}
            and doc["schema_version"] == 1 and is_nat(doc["schema_version"]) and is_str(doc["project_id"])
            and is_str(doc["statement"]) and isinstance(doc["anchors"], list) and len(doc["anchors"]) <= 100000
            and all(anchor_ok(a) for a in doc["anchors"]) and isinstance(doc["bridge"], list)
            and len(doc["bridge"]) <= 100000 and all(link_ok(w) for w in doc["bridge"]))

def cmd_anchors(root, outdir):
    path = os.path.join(root, "anchors.json")
    if not os.path.exists(path):
        print("no anchors.json (bundle built before anchoring existed)")
        open(os.path.join(outdir, "anchors.tasks"), "w").close()
        return
    doc = read_json(path)
    if not anchors_ok(doc):
        die("anchors.json does not have the expected structure")
    chain = json.load(open(os.path.join(root, ".chain.json")))
    seg, hashes = chain["segment"], chain["hashes"]
    m = read_json(os.path.join(root, "manifest.json"))
    errors, tasks, seen = [], [], set()
    after = [a for a in doc["anchors"] if seg is not None and a["seq"] > seg["last_seq"]]
    for i, a in enumerate(doc["anchors"]):
        if a["project_id"] != m["project_id"] or doc["project_id"] != m["project_id"]:
            errors.append("anchor at seq %d belongs to another project" % a["seq"])
            continue
        seq, head = a["seq"], a["head_hash"]
        if seq in seen:
            errors.append("two anchors at seq %d" % seq)
        seen.add(seq)
        if seg is None:
            errors.append("anchor at seq %d but the bundle holds no chain segment" % seq)
        elif str(seq) in hashes:
            if hashes[str(seq)] != head:
                errors.append("anchor at seq %d states head %s, but the bundle's chain has %s there" % (seq, head, hashes[str(seq)]))
        elif seq == seg["first_seq"] - 1:
            if head != seg["anchor_prev_hash"]:
                errors.append("anchor at seq %d does not match the hash the segment starts from" % seq)
        elif after and seq == after[0]["seq"]:
            prev, expect = seg["head_hash"], seg["last_seq"] + 1
            for w in doc["bridge"]:
                if w["seq"] != expect or w["prev_hash"] != prev:
                    errors.append("bridge breaks at seq %d" % w["seq"])
                    break
                prev, expect = w["hash"], expect + 1
            if expect - 1 != seq or prev != head:
                errors.append("the bridge from the segment head does not reach the anchor at seq %d" % seq)
        else:
            errors.append("anchor at seq %d is not covered by the bundle's chain segment" % seq)
        token = base64.b64decode(a["token"], validate=True)
        statement = {"type": ANCHOR_TYPE, "project_id": a["project_id"], "seq": seq, "head_hash": head}
        base = os.path.join(outdir, "anchor-%d" % i)
        if a["kind"] == "rfc3161":
            open(base + ".tsr", "wb").write(token)
            tasks.append("rfc3161 %d %s %s" % (seq, base + ".tsr", sha256hex(jcs(statement).encode())))
        elif a["kind"] == "ed25519":
            parts = token.decode("ascii").split(".")
            claim = load_json(unb64url(parts[1]).decode("utf-8")) if len(parts) == 3 and jws_header(parts[0]) else {}
            if len(parts) != 3 or {k: claim.get(k) for k in statement} != statement or set(claim) != set(statement) | {"anchored_at"}:
                errors.append("checkpoint at seq %d does not state this head" % seq)
                continue
            open(base + ".input", "wb").write((parts[0] + "." + parts[1]).encode("ascii"))
            open(base + ".sig", "wb").write(unb64url(parts[2]))
            tasks.append("ed25519 %d %s %s" % (seq, base + ".input", base + ".sig"))
        else:
            errors.append("anchor at seq %d has unknown kind" % seq)
    if doc["bridge"] and not after:
        errors.append("a bridge is present but no anchor after the segment")
    for e in errors[:20]:
        print(e)
    open(os.path.join(outdir, "anchors.tasks"), "w").write("".join(t + "\n" for t in tasks))
    if errors:
        sys.exit(1)
    print("%d anchors match the re-derived chain" % len(doc["anchors"]))

def cmd_epoch():
    """The genTime `openssl ts -reply -text` prints ("Mar  1 12:00:00.5 2026 GMT") as Unix seconds."""
    import calendar, time
    text = re.sub(r"\.\d+ ", " ", sys.stdin.read().strip())
    print(calendar.timegm(time.strptime(text, "%b %d %H:%M:%S %Y GMT")))

def cmd_der_whole(path):
    """The file is one DER object whose definite length (1-3 octets) ends at its last byte, as svc verify requires:
    bytes after a timestamp token lie outside its signature, and openssl ts would ignore them."""
    b = open(path, "rb").read()
    if len(b) < 2:
        raise ValueError("truncated DER")
    n, at = b[1], 2
    if n & 0x80:
        k = n & 0x7f
        if k < 1 or k > 3:
            raise ValueError("unsupported DER length")
        n, at = int.from_bytes(b[2:2 + k], "big"), 2 + k
    if at + n > len(b):
        raise ValueError("truncated DER")
    if at + n < len(b):
        raise ValueError("%d bytes follow its DER structure" % (len(b) - at - n))
    print("one DER object")

def cmd_jcs(path):
    sys.stdout.write(jcs(read_json(path)))

COMMANDS = {"listing": cmd_listing, "manifest": cmd_manifest, "jws": cmd_jws, "stub": cmd_stub,
            "chain": cmd_chain, "anchors": cmd_anchors, "jcs": cmd_jcs, "epoch": cmd_epoch, "der_whole": cmd_der_whole}

if __name__ == "__main__":
    sys.setrecursionlimit(200)  # JSON deeper than this is refused (records allow 64 levels)
    try:
        COMMANDS[sys.argv[1]](*sys.argv[2:])
    except SystemExit:
        raise
    except Exception as e:  # any malformed input is a failed check, never a crash
        print("%s: %s" % (type(e).__name__, e))
        sys.exit(1)
PY
helper() { python3 "$WORK/helper.py" "$@"; }
# ts_verify TOKEN DIGEST: openssl ts -verify with the chain checked at the token's own genTime (as svc verify
# does): a token claiming a time before its TSA certificate existed fails, one whose certificate has since
# expired still verifies. The token must be one whole DER object first: openssl ignores bytes after it.
ts_verify() {
  helper der_whole "$1" >/dev/null || { helper der_whole "$1"; return 1; }
  at=$(openssl ts -reply -in "$1" -text 2>/dev/null | sed -n 's/^Time stamp: //p' | helper epoch 2>/dev/null) || return 1
  openssl ts -verify -in "$1" -digest "$2" -CAfile "$TSAROOT" -attime "$at" 2>&1
}
run_check() { # run_check LABEL command...: prints PASS/FAIL with the command's output as the reason
  label=$1
  shift
  if out=$("$@" 2>&1); then pass "$label: $out"; return 0; fi
  fail "$label"
  printf '%s\n' "$out" | sed -n '1,20s/^/      /p'
  return 1
}

# 1. Archive listing: both ZIP readers must see the same safe, unique names.
unzip -Z1 "$BUNDLE" >"$WORK/unzip-names" 2>/dev/null || { fail "archive: unzip cannot list the archive"; finish; }
run_check "archive" helper listing "$BUNDLE" "$WORK/unzip-names" "$WORK/names" || finish

# 2. Extract exactly the listed entries, each cut at the size the manifest lists (a bomb cannot run long).
mkdir -p "$WORK/x"
unzip -p "$BUNDLE" manifest.json | head -c 1048577 >"$WORK/x/manifest.json"
run_check "manifest" helper manifest "$WORK/x/manifest.json" "$WORK/names" "$WORK/plan" "$WORK/sums" || finish
while read -r size name; do
  mkdir -p "$WORK/x/$(dirname "$name")"
  unzip -p "$BUNDLE" "$name" | head -c "$((size + 1))" >"$WORK/x/$name"
done <"$WORK/plan"
unzip -p "$BUNDLE" attestation.json | head -c 65537 >"$WORK/x/attestation.json"
unzip -p "$BUNDLE" rfc3161_timestamp.tsr | head -c 262145 >"$WORK/x/rfc3161_timestamp.tsr"

# 3. Entry digests: sha256sum against the manifest.
if out=$(cd "$WORK/x" && sha256sum --strict -c "$WORK/sums" 2>&1); then
  pass "entries: every listed entry matches its SHA-256"
else
  fail "entries: SHA-256 mismatch"
  printf '%s\n' "$out" | grep -v ': OK$' | sed -n '1,20s/^/      /p'
fi

# 4. Ed25519 signature over the manifest digest, with the public key you were given.
if run_check "signature layout" helper jws "$WORK/x/attestation.json" "$WORK/x/manifest.json" "$PUBKEY" "$WORK"; then
  if openssl pkeyutl -verify -pubin -inkey "$PUBKEY" -rawin -in "$WORK/jws.input" -sigfile "$WORK/jws.sig" >/dev/null 2>&1; then
    pass "signature: Ed25519 JWS verifies with $PUBKEY"
  else
    fail "signature: Ed25519 JWS does not verify with $PUBKEY"
  fi
fi

# 5. Timestamp over the manifest digest.
DIGEST=$(sha256sum "$WORK/x/manifest.json" | cut -d' ' -f1)
SIGNED_KIND=$(cat "$WORK/timestamp.kind" 2>/dev/null || echo "")
if [ "$(head -c 19 "$WORK/x/rfc3161_timestamp.tsr")" = "SVC-RFC3161-STUB v1" ]; then
  if [ "$SIGNED_KIND" != "stub" ]; then
    fail "timestamp: the file is a stub but the attestation says \"$SIGNED_KIND\""
  else
    run_check "timestamp (stub)" helper stub "$WORK/x/rfc3161_timestamp.tsr" "$WORK/x/manifest.json"
  fi
elif [ "$SIGNED_KIND" != "rfc3161" ]; then
  fail "timestamp: the file is a token but the attestation says \"$SIGNED_KIND\""
elif [ -z "$TSAROOT" ]; then
  fail "timestamp: an RFC 3161 token needs the TSA root certificate (third argument) to be trusted"
elif out=$(ts_verify "$WORK/x/rfc3161_timestamp.tsr" "$DIGEST") &&
  printf '%s' "$out" | grep -q 'Verification: OK'; then
  info=$(openssl ts -reply -in "$WORK/x/rfc3161_timestamp.tsr" -text 2>/dev/null | sed -n 's/^Time stamp: /time /p; s/^TSA: /TSA /p' | tr '\n' ' ')
  pass "timestamp: RFC 3161 token over the manifest digest chains to $TSAROOT; $info"
else
  fail "timestamp: openssl ts -verify refused the token (chain checked at its genTime)"
  printf '%s\n' "$out" | sed -n '1,5s/^/      /p'
fi

# 6. Records: strict envelope, RFC 8785 hash, chain links from the anchor hash to the head.
if run_check "chain" helper chain "$WORK/x" "$WORK/x/manifest.json"; then
  # 7. Anchors: each anchored head must equal the re-derived hash at its seq, and its token must verify.
  if run_check "anchors (heads)" helper anchors "$WORK/x" "$WORK"; then
    while read -r kind seq a b; do
      if [ "$kind" = rfc3161 ]; then
        if [ -z "$TSAROOT" ]; then
          fail "anchor seq $seq: an RFC 3161 anchor needs the TSA root certificate to be trusted"
        elif ts_verify "$a" "$b" | grep -q 'Verification: OK'; then
          pass "anchor seq $seq: RFC 3161 token over the anchor statement"
        else
          fail "anchor seq $seq: openssl ts -verify refused the anchor token"
        fi
      elif openssl pkeyutl -verify -pubin -inkey "$PUBKEY" -rawin -in "$a" -sigfile "$b" >/dev/null 2>&1; then
        pass "anchor seq $seq: Ed25519 checkpoint signed by $PUBKEY (the producer's word only)"
      else
        fail "anchor seq $seq: Ed25519 checkpoint does not verify with $PUBKEY"
      fi
    done <"$WORK/anchors.tasks"
  fi
fi
finish
