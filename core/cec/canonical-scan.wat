;; The byte-level scan of a canonical record line (core/cec/canonical-scan.ts is the reference it mirrors, rule
;; for rule; core/cec/canonical-scan-wasm.test.ts holds the two to the same answers). Compiled by
;; scripts/build-wasm.mjs into core/cec/canonical-scan-wasm-bytes.ts.
;;
;; The caller copies the line to LINE and calls `check(length, maxDepth)`: 0 when the line is not in the
;; builder's canonical layout, 1 when it is, with the member positions (relative to the line) in FIELDS and the
;; hashed text `prev_hash + "{" + the line after its hash member` written in place, from hashAt + 1 to the end.
;; A number this module cannot prove canonical by rule is handed to the imported `js.number(start, end)`, which
;; compares it with String(Number(text)), as the reference does.
;;
;; Memory: 0 string-byte classes | 256 lowercase hex | 512 short escapes | 768 short controls | 1024 literals |
;; 2048 FIELDS | 4096 container stack (kind, key start, key end per level; STACK levels) | 16384 LINE, then 16
;; bytes the caller leaves free after the line (strings are scanned 16 bytes at a time).
(module
  (import "js" "number" (func $jsNumber (param i32 i32) (result i32)))
  (memory (export "memory") 1)

  ;; ORDINARY 0, END 1, ESCAPE 2, HIGH 3, CONTROL 4 (filled by $init).
  (global $STRING_BYTE i32 (i32.const 0))
  (global $LOWER_HEX i32 (i32.const 256))
  (global $SHORT_ESCAPE i32 (i32.const 512))
  (global $SHORT_CONTROL i32 (i32.const 768))
  (global $FIELDS i32 (i32.const 2048))
  (global $IS_OBJECT i32 (i32.const 4096))
  (global $KEY_START i32 (i32.const 5120))
  (global $KEY_END i32 (i32.const 9216))
  (global $LINE i32 (i32.const 16384))
  (export "LINE" (global $LINE))
  (export "FIELDS" (global $FIELDS))
  (global $STACK i32 (i32.const 1024))
  (export "STACK" (global $STACK))

  (data (i32.const 1024) "{\"hash\":\"")
  (data (i32.const 1056) "\",\"payload\":")
  (data (i32.const 1088) ",\"prev_hash\":\"")
  (data (i32.const 1120) "\",\"project_id\":")
  (data (i32.const 1152) ",\"record_id\":")
  (data (i32.const 1184) ",\"recorded_at\":")
  (data (i32.const 1216) ",\"schema_key\":")
  (data (i32.const 1248) ",\"seq\":")
  (data (i32.const 1280) ",\"timestamp\":")
  (data (i32.const 1312) "true")
  (data (i32.const 1320) "false")
  (data (i32.const 1328) "null")
  ;; The escapes JSON.stringify writes with a short form: \" \\ \b \f \n \r \t.
  (data (i32.const 546) "\01") ;; "
  (data (i32.const 604) "\01") ;; \
  (data (i32.const 610) "\01") ;; b
  (data (i32.const 614) "\01") ;; f
  (data (i32.const 622) "\01") ;; n
  (data (i32.const 626) "\01") ;; r
  (data (i32.const 628) "\01") ;; t
  ;; Control characters JSON.stringify writes as \b \t \n \f \r (so never as \u00xx).
  (data (i32.const 776) "\01\01\01\00\01\01")

  (global $end (mut i32) (i32.const 0))
  (global $maxDepth (mut i32) (i32.const 0))
  (global $nonAscii (mut i32) (i32.const 0))
  (global $plain (mut i32) (i32.const 1))

  (func $init
    (local $c i32)
    (loop $fill
      (i32.store8 (i32.add (global.get $STRING_BYTE) (local.get $c))
        (if (result i32) (i32.eq (local.get $c) (i32.const 0x22)) (then (i32.const 1))
          (else (if (result i32) (i32.eq (local.get $c) (i32.const 0x5c)) (then (i32.const 2))
            (else (if (result i32) (i32.ge_u (local.get $c) (i32.const 0x80)) (then (i32.const 3))
              (else (if (result i32) (i32.lt_u (local.get $c) (i32.const 0x20)) (then (i32.const 4))
                (else (i32.const 0))))))))))
      (i32.store8 (i32.add (global.get $LOWER_HEX) (local.get $c))
        (i32.or
          (i32.and (i32.ge_u (local.get $c) (i32.const 0x30)) (i32.le_u (local.get $c) (i32.const 0x39)))
          (i32.and (i32.ge_u (local.get $c) (i32.const 0x61)) (i32.le_u (local.get $c) (i32.const 0x66)))))
      (local.set $c (i32.add (local.get $c) (i32.const 1)))
      (br_if $fill (i32.lt_u (local.get $c) (i32.const 256)))))
  (start $init)

  (func $isDigit (param $c i32) (result i32)
    (i32.lt_u (i32.sub (local.get $c) (i32.const 0x30)) (i32.const 10)))

  ;; Expects the `n` bytes at `lit` at `at`; the position after them, or -1.
  (func $literal (param $at i32) (param $lit i32) (param $n i32) (result i32)
    (local $k i32)
    (if (i32.lt_s (local.get $at) (i32.const 0)) (then (return (i32.const -1))))
    (if (i32.gt_s (i32.add (local.get $at) (local.get $n)) (global.get $end)) (then (return (i32.const -1))))
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $k) (local.get $n)))
        (if (i32.ne (i32.load8_u (i32.add (local.get $at) (local.get $k))) (i32.load8_u (i32.add (local.get $lit) (local.get $k))))
          (then (return (i32.const -1))))
        (local.set $k (i32.add (local.get $k) (i32.const 1)))
        (br $next)))
    (i32.add (local.get $at) (local.get $n)))

  ;; A JSON string in the form JSON.stringify writes it, from its opening quote; sets $plain and $nonAscii.
  (func $string (param $at i32) (result i32)
    (local $i i32) (local $kind i32) (local $e i32) (local $h i32) (local $l i32) (local $v v128) (local $special i32)
    (local $quote v128) (local $backslash v128) (local $space v128)
    (if (i32.lt_s (local.get $at) (i32.const 0)) (then (return (i32.const -1))))
    (if (i32.ne (i32.load8_u (local.get $at)) (i32.const 0x22)) (then (return (i32.const -1))))
    (global.set $plain (i32.const 1))
    (local.set $quote (i8x16.splat (i32.const 0x22)))
    (local.set $backslash (i8x16.splat (i32.const 0x5c)))
    (local.set $space (i8x16.splat (i32.const 0x20)))
    (local.set $i (i32.add (local.get $at) (i32.const 1)))
    (loop $next
      ;; Ordinary bytes 16 at a time: to the first quote, backslash, control or high byte. The 0 after the line
      ;; is a control byte, so this never passes the end (the caller leaves 16 bytes of memory after it).
      (block $found
        (loop $ordinary
          (local.set $v (v128.load (local.get $i)))
          (local.set $special
            (i32.or
              (i8x16.bitmask
                (v128.or
                  (v128.or (i8x16.eq (local.get $v) (local.get $quote)) (i8x16.eq (local.get $v) (local.get $backslash)))
                  (i8x16.lt_u (local.get $v) (local.get $space))))
              (i8x16.bitmask (local.get $v))))
          (br_if $found (local.get $special))
          (local.set $i (i32.add (local.get $i) (i32.const 16)))
          (br $ordinary)))
      (local.set $i (i32.add (local.get $i) (i32.ctz (local.get $special))))
      (if (i32.ge_s (local.get $i) (global.get $end)) (then (return (i32.const -1))))
      (local.set $kind (i32.load8_u (i32.add (global.get $STRING_BYTE) (i32.load8_u (local.get $i)))))
      (if (i32.eq (local.get $kind) (i32.const 1)) (then (return (i32.add (local.get $i) (i32.const 1)))))
      (if (i32.eq (local.get $kind) (i32.const 3))
        (then
          (global.set $nonAscii (i32.const 1))
          (global.set $plain (i32.const 0))
          (local.set $i (i32.add (local.get $i) (i32.const 1)))
          (br $next)))
      (if (i32.ne (local.get $kind) (i32.const 2)) (then (return (i32.const -1))))
      (global.set $plain (i32.const 0))
      (local.set $e (i32.load8_u (i32.add (local.get $i) (i32.const 1))))
      (if (i32.load8_u (i32.add (global.get $SHORT_ESCAPE) (local.get $e)))
        (then (local.set $i (i32.add (local.get $i) (i32.const 2))) (br $next)))
      (if (i32.and
            (i32.and (i32.eq (local.get $e) (i32.const 0x75)) (i32.le_s (i32.add (local.get $i) (i32.const 6)) (global.get $end)))
            (i32.and
              (i32.eq (i32.load8_u (i32.add (local.get $i) (i32.const 2))) (i32.const 0x30))
              (i32.eq (i32.load8_u (i32.add (local.get $i) (i32.const 3))) (i32.const 0x30))))
        (then
          (local.set $h (i32.load8_u (i32.add (local.get $i) (i32.const 4))))
          (local.set $l (i32.load8_u (i32.add (local.get $i) (i32.const 5))))
          ;; Only control characters are \u-escaped, in lowercase hex, and not those with a short form.
          (if (i32.and (i32.ne (local.get $h) (i32.const 0x30)) (i32.ne (local.get $h) (i32.const 0x31)))
            (then (return (i32.const -1))))
          (if (i32.eqz (i32.load8_u (i32.add (global.get $LOWER_HEX) (local.get $l)))) (then (return (i32.const -1))))
          (if (i32.load8_u
                (i32.add (global.get $SHORT_CONTROL)
                  (i32.add
                    (i32.mul (i32.sub (local.get $h) (i32.const 0x30)) (i32.const 16))
                    (if (result i32) (i32.le_u (local.get $l) (i32.const 0x39))
                      (then (i32.sub (local.get $l) (i32.const 0x30)))
                      (else (i32.sub (local.get $l) (i32.const 0x57)))))))
            (then (return (i32.const -1))))
          (local.set $i (i32.add (local.get $i) (i32.const 6)))
          (br $next)))
      (return (i32.const -1)))
    (i32.const -1))

  (func $plainString (param $at i32) (result i32)
    (local $after i32)
    (local.set $after (call $string (local.get $at)))
    (if (result i32) (i32.and (i32.ge_s (local.get $after) (i32.const 0)) (global.get $plain))
      (then (local.get $after)) (else (i32.const -1))))

  ;; Skips digits (the byte at the line's end is 0, never a digit).
  (func $digits (param $i i32) (result i32)
    (loop $next
      (if (call $isDigit (i32.load8_u (local.get $i)))
        (then (local.set $i (i32.add (local.get $i) (i32.const 1))) (br $next))))
    (local.get $i))

  ;; A JSON number written exactly as ECMAScript's Number::toString writes its value.
  (func $number (param $start i32) (result i32)
    (local $i i32) (local $intStart i32) (local $intDigits i32) (local $fraction i32) (local $fractionStart i32)
    (local $leadingZeros i32) (local $exponent i32) (local $c i32) (local $plainDecimal i32) (local $zeroInteger i32)
    (local.set $i (local.get $start))
    (if (i32.eq (i32.load8_u (local.get $i)) (i32.const 0x2d)) (then (local.set $i (i32.add (local.get $i) (i32.const 1)))))
    (local.set $intStart (local.get $i))
    (local.set $c (i32.load8_u (local.get $i)))
    (if (i32.eq (local.get $c) (i32.const 0x30))
      (then (local.set $i (i32.add (local.get $i) (i32.const 1))))
      (else
        (if (call $isDigit (local.get $c))
          (then (local.set $i (call $digits (local.get $i))))
          (else (return (i32.const -1))))))
    (local.set $intDigits (i32.sub (local.get $i) (local.get $intStart)))
    (if (i32.eq (i32.load8_u (local.get $i)) (i32.const 0x2e))
      (then
        (if (i32.eqz (call $isDigit (i32.load8_u (i32.add (local.get $i) (i32.const 1))))) (then (return (i32.const -1))))
        (local.set $fractionStart (i32.add (local.get $i) (i32.const 1)))
        (local.set $i (call $digits (local.get $fractionStart)))
        (local.set $fraction (i32.sub (local.get $i) (local.get $fractionStart)))
        (block $counted
          (loop $zeros
            (br_if $counted (i32.ge_u (local.get $leadingZeros) (local.get $fraction)))
            (br_if $counted (i32.ne (i32.load8_u (i32.add (local.get $fractionStart) (local.get $leadingZeros))) (i32.const 0x30)))
            (local.set $leadingZeros (i32.add (local.get $leadingZeros) (i32.const 1)))
            (br $zeros)))))
    (local.set $c (i32.load8_u (local.get $i)))
    (if (i32.or (i32.eq (local.get $c) (i32.const 0x65)) (i32.eq (local.get $c) (i32.const 0x45)))
      (then
        (local.set $exponent (i32.const 1))
        (local.set $c (i32.load8_u (i32.add (local.get $i) (i32.const 1))))
        (local.set $i (i32.add (local.get $i)
          (if (result i32) (i32.or (i32.eq (local.get $c) (i32.const 0x2b)) (i32.eq (local.get $c) (i32.const 0x2d)))
            (then (i32.const 2)) (else (i32.const 1)))))
        (if (i32.eqz (call $isDigit (i32.load8_u (local.get $i)))) (then (return (i32.const -1))))
        (local.set $i (call $digits (local.get $i)))))
    (local.set $zeroInteger (i32.eq (i32.load8_u (local.get $intStart)) (i32.const 0x30)))
    ;; At most 15 significant digits, no trailing fraction zero, not below 1e-6: already Number::toString's text.
    (local.set $plainDecimal
      (if (result i32) (i32.eqz (local.get $fraction))
        (then (i32.le_u (local.get $intDigits) (i32.const 15)))
        (else
          (if (result i32) (i32.eq (i32.load8_u (i32.sub (local.get $i) (i32.const 1))) (i32.const 0x30))
            (then (i32.const 0))
            (else
              (if (result i32) (local.get $zeroInteger)
                (then (i32.and (i32.le_u (local.get $leadingZeros) (i32.const 5))
                  (i32.le_u (i32.sub (local.get $fraction) (local.get $leadingZeros)) (i32.const 15))))
                (else (i32.le_u (i32.add (local.get $intDigits) (local.get $fraction)) (i32.const 15)))))))))
    (if (i32.and (i32.eqz (local.get $exponent)) (local.get $plainDecimal))
      (then
        ;; -0 is written 0.
        (if (i32.and
              (i32.and (i32.ne (local.get $start) (local.get $intStart)) (i32.eq (local.get $intDigits) (i32.const 1)))
              (i32.and (i32.eqz (local.get $fraction)) (local.get $zeroInteger)))
          (then (return (i32.const -1))))
        (return (local.get $i))))
    (if (result i32)
      (call $jsNumber (i32.sub (local.get $start) (global.get $LINE)) (i32.sub (local.get $i) (global.get $LINE)))
      (then (local.get $i)) (else (i32.const -1))))

  ;; An object key: a plain ASCII string, strictly after the previous key of the same object (byte order of plain
  ;; ASCII is UTF-16 order), then a colon.
  (func $key (param $at i32) (param $depth i32) (param $first i32) (result i32)
    (local $after i32) (local $start i32) (local $length i32) (local $keyLength i32) (local $order i32) (local $k i32)
    (local $shorter i32)
    (local.set $after (call $string (local.get $at)))
    (if (i32.or (i32.lt_s (local.get $after) (i32.const 0)) (i32.eqz (global.get $plain))) (then (return (i32.const -1))))
    (if (i32.eqz (local.get $first))
      (then
        (local.set $start (i32.load (i32.add (global.get $KEY_START) (i32.shl (local.get $depth) (i32.const 2)))))
        (local.set $length (i32.sub (i32.load (i32.add (global.get $KEY_END) (i32.shl (local.get $depth) (i32.const 2)))) (local.get $start)))
        (local.set $keyLength (i32.sub (local.get $after) (local.get $at)))
        (local.set $shorter
          (if (result i32) (i32.lt_s (local.get $length) (local.get $keyLength)) (then (local.get $length)) (else (local.get $keyLength))))
        (block $compared
          (loop $next
            (br_if $compared (i32.ge_s (local.get $k) (local.get $shorter)))
            (local.set $order
              (i32.sub
                (i32.load8_u (i32.add (local.get $at) (local.get $k)))
                (i32.load8_u (i32.add (local.get $start) (local.get $k)))))
            (br_if $compared (local.get $order))
            (local.set $k (i32.add (local.get $k) (i32.const 1)))
            (br $next)))
        (if (i32.or (i32.lt_s (local.get $order) (i32.const 0))
              (i32.and (i32.eqz (local.get $order)) (i32.le_s (local.get $keyLength) (local.get $length))))
          (then (return (i32.const -1))))))
    (i32.store (i32.add (global.get $KEY_START) (i32.shl (local.get $depth) (i32.const 2))) (local.get $at))
    (i32.store (i32.add (global.get $KEY_END) (i32.shl (local.get $depth) (i32.const 2))) (local.get $after))
    (if (i32.or (i32.ge_s (local.get $after) (global.get $end)) (i32.ne (i32.load8_u (local.get $after)) (i32.const 0x3a)))
      (then (return (i32.const -1))))
    (i32.add (local.get $after) (i32.const 1)))

  ;; One JSON value in RFC 8785 form, iteratively, never deeper than maxDepth - 1 levels.
  (func $value (param $at i32) (result i32)
    (local $i i32) (local $depth i32) (local $c i32) (local $object i32) (local $close i32)
    (local.set $i (local.get $at))
    (loop $nextValue
      (if (i32.ge_s (local.get $i) (global.get $end)) (then (return (i32.const -1))))
      (local.set $c (i32.load8_u (local.get $i)))
      (block $scanned
        (if (i32.or (i32.eq (local.get $c) (i32.const 0x7b)) (i32.eq (local.get $c) (i32.const 0x5b)))
          (then
            (if (i32.ge_s (i32.add (local.get $depth) (i32.const 1)) (global.get $maxDepth)) (then (return (i32.const -1))))
            (local.set $depth (i32.add (local.get $depth) (i32.const 1)))
            (local.set $object (i32.eq (local.get $c) (i32.const 0x7b)))
            (i32.store8 (i32.add (global.get $IS_OBJECT) (local.get $depth)) (local.get $object))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (local.set $close (if (result i32) (local.get $object) (then (i32.const 0x7d)) (else (i32.const 0x5d))))
            (if (i32.ne (i32.load8_u (local.get $i)) (local.get $close))
              (then
                (if (local.get $object) (then (local.set $i (call $key (local.get $i) (local.get $depth) (i32.const 1)))))
                (if (i32.lt_s (local.get $i) (i32.const 0)) (then (return (i32.const -1))))
                (br $nextValue)))
            (local.set $i (i32.add (local.get $i) (i32.const 1)))
            (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
            (br $scanned)))
        (if (i32.eq (local.get $c) (i32.const 0x22)) (then (local.set $i (call $string (local.get $i))) (br $scanned)))
        (if (i32.or (i32.eq (local.get $c) (i32.const 0x2d)) (call $isDigit (local.get $c)))
          (then (local.set $i (call $number (local.get $i))) (br $scanned)))
        (if (i32.eq (local.get $c) (i32.const 0x74)) (then (local.set $i (call $literal (local.get $i) (i32.const 1312) (i32.const 4))) (br $scanned)))
        (if (i32.eq (local.get $c) (i32.const 0x66)) (then (local.set $i (call $literal (local.get $i) (i32.const 1320) (i32.const 5))) (br $scanned)))
        (if (i32.eq (local.get $c) (i32.const 0x6e)) (then (local.set $i (call $literal (local.get $i) (i32.const 1328) (i32.const 4))) (br $scanned)))
        (return (i32.const -1)))
      (if (i32.lt_s (local.get $i) (i32.const 0)) (then (return (i32.const -1))))
      ;; After a value: close containers, or a comma and the next member.
      (loop $afterValue
        (if (i32.eqz (local.get $depth)) (then (return (local.get $i))))
        (if (i32.ge_s (local.get $i) (global.get $end)) (then (return (i32.const -1))))
        (local.set $object (i32.load8_u (i32.add (global.get $IS_OBJECT) (local.get $depth))))
        (local.set $c (i32.load8_u (local.get $i)))
        (if (i32.eq (local.get $c) (i32.const 0x2c))
          (then
            (local.set $i
              (if (result i32) (local.get $object)
                (then (call $key (i32.add (local.get $i) (i32.const 1)) (local.get $depth) (i32.const 0)))
                (else (i32.add (local.get $i) (i32.const 1)))))
            (if (i32.lt_s (local.get $i) (i32.const 0)) (then (return (i32.const -1))))
            (br $nextValue)))
        (if (i32.ne (local.get $c) (if (result i32) (local.get $object) (then (i32.const 0x7d)) (else (i32.const 0x5d))))
          (then (return (i32.const -1))))
        (local.set $i (i32.add (local.get $i) (i32.const 1)))
        (local.set $depth (i32.sub (local.get $depth) (i32.const 1)))
        (br $afterValue)))
    (i32.const -1))

  (func $field (param $index i32) (param $position i32)
    (i32.store (i32.add (global.get $FIELDS) (i32.shl (local.get $index) (i32.const 2)))
      (i32.sub (local.get $position) (global.get $LINE))))

  ;; FIELDS: 0 hashAt, 1 prevHash, 2 projectId, 3 projectIdEnd, 4 recordedAt, 5 recordedAtEnd, 6 schemaKey,
  ;; 7 schemaKeyEnd, 8 timestamp, 9 timestampEnd, 10 nonAscii; the seq as f64 at FIELDS + 64.
  (func (export "check") (param $length i32) (param $maxDepth i32) (result i32)
    (local $hashAt i32) (local $payload i32) (local $payloadEnd i32) (local $prevHash i32) (local $projectId i32)
    (local $projectIdEnd i32) (local $recordId i32) (local $recordedAt i32) (local $recordedAtEnd i32)
    (local $schemaKey i32) (local $schemaKeyEnd i32) (local $seqAt i32) (local $seqEnd i32) (local $seq i64)
    (local $timestamp i32) (local $timestampEnd i32) (local $body i32) (local $k i32) (local $c i32)
    (global.set $end (i32.add (global.get $LINE) (local.get $length)))
    ;; A 0 after the line: reads one past the end see a byte that is never valid there.
    (i32.store8 (global.get $end) (i32.const 0))
    (global.set $maxDepth (local.get $maxDepth))
    (global.set $nonAscii (i32.const 0))
    (local.set $hashAt (call $literal (global.get $LINE) (i32.const 1024) (i32.const 9)))
    (if (i32.or (i32.lt_s (local.get $hashAt) (i32.const 0)) (i32.gt_s (i32.add (local.get $hashAt) (i32.const 64)) (global.get $end)))
      (then (return (i32.const 0))))
    (local.set $payload (call $literal (i32.add (local.get $hashAt) (i32.const 64)) (i32.const 1056) (i32.const 12)))
    (if (i32.lt_s (local.get $payload) (i32.const 0)) (then (return (i32.const 0))))
    (if (i32.ne (i32.load8_u (local.get $payload)) (i32.const 0x7b)) (then (return (i32.const 0))))
    (local.set $payloadEnd (call $value (local.get $payload)))
    (local.set $prevHash (call $literal (local.get $payloadEnd) (i32.const 1088) (i32.const 14)))
    (if (i32.or (i32.lt_s (local.get $prevHash) (i32.const 0)) (i32.gt_s (i32.add (local.get $prevHash) (i32.const 64)) (global.get $end)))
      (then (return (i32.const 0))))
    (local.set $projectId (call $literal (i32.add (local.get $prevHash) (i32.const 64)) (i32.const 1120) (i32.const 15)))
    (local.set $projectIdEnd (call $plainString (local.get $projectId)))
    (local.set $recordId (call $literal (local.get $projectIdEnd) (i32.const 1152) (i32.const 13)))
    (local.set $recordedAt (call $literal (call $string (local.get $recordId)) (i32.const 1184) (i32.const 15)))
    (local.set $recordedAtEnd (call $plainString (local.get $recordedAt)))
    (local.set $schemaKey (call $literal (local.get $recordedAtEnd) (i32.const 1216) (i32.const 14)))
    (local.set $schemaKeyEnd (call $plainString (local.get $schemaKey)))
    (local.set $seqAt (call $literal (local.get $schemaKeyEnd) (i32.const 1248) (i32.const 7)))
    (if (i32.lt_s (local.get $seqAt) (i32.const 0)) (then (return (i32.const 0))))
    (if (i32.eq (i32.load8_u (local.get $seqAt)) (i32.const 0x30)) (then (return (i32.const 0))))
    (local.set $seqEnd (local.get $seqAt))
    (block $read
      (loop $digit
        (br_if $read (i32.ge_s (local.get $seqEnd) (global.get $end)))
        (local.set $c (i32.load8_u (local.get $seqEnd)))
        (br_if $read (i32.eqz (call $isDigit (local.get $c))))
        (local.set $seq (i64.add (i64.mul (local.get $seq) (i64.const 10)) (i64.extend_i32_u (i32.sub (local.get $c) (i32.const 0x30)))))
        (local.set $seqEnd (i32.add (local.get $seqEnd) (i32.const 1)))
        (br $digit)))
    (if (i32.or (i32.eq (local.get $seqEnd) (local.get $seqAt)) (i32.gt_s (i32.sub (local.get $seqEnd) (local.get $seqAt)) (i32.const 15)))
      (then (return (i32.const 0))))
    (local.set $timestamp (call $literal (local.get $seqEnd) (i32.const 1280) (i32.const 13)))
    (local.set $timestampEnd (call $plainString (local.get $timestamp)))
    (if (i32.lt_s (local.get $timestampEnd) (i32.const 0)) (then (return (i32.const 0))))
    (if (i32.or (i32.ne (i32.add (local.get $timestampEnd) (i32.const 1)) (global.get $end))
          (i32.ne (i32.load8_u (local.get $timestampEnd)) (i32.const 0x7d)))
      (then (return (i32.const 0))))
    ;; prev_hash, checked as lowercase hex, and "{" written just before the body (over the hash member, which
    ;; the caller reads from its own copy of the line): the hashed text is then contiguous.
    (local.set $body (i32.add (local.get $hashAt) (i32.const 66)))
    (loop $hex
      (local.set $c (i32.load8_u (i32.add (local.get $prevHash) (local.get $k))))
      (if (i32.eqz (i32.load8_u (i32.add (global.get $LOWER_HEX) (local.get $c)))) (then (return (i32.const 0))))
      (i32.store8 (i32.add (i32.sub (local.get $body) (i32.const 65)) (local.get $k)) (local.get $c))
      (local.set $k (i32.add (local.get $k) (i32.const 1)))
      (br_if $hex (i32.lt_u (local.get $k) (i32.const 64))))
    (i32.store8 (i32.sub (local.get $body) (i32.const 1)) (i32.const 0x7b))
    (call $field (i32.const 0) (local.get $hashAt))
    (call $field (i32.const 1) (local.get $prevHash))
    (call $field (i32.const 2) (local.get $projectId))
    (call $field (i32.const 3) (local.get $projectIdEnd))
    (call $field (i32.const 4) (local.get $recordedAt))
    (call $field (i32.const 5) (local.get $recordedAtEnd))
    (call $field (i32.const 6) (local.get $schemaKey))
    (call $field (i32.const 7) (local.get $schemaKeyEnd))
    (call $field (i32.const 8) (local.get $timestamp))
    (call $field (i32.const 9) (local.get $timestampEnd))
    (i32.store (i32.add (global.get $FIELDS) (i32.const 40)) (global.get $nonAscii))
    (f64.store (i32.add (global.get $FIELDS) (i32.const 64)) (f64.convert_i64_u (local.get $seq)))
    (i32.const 1))
)
