/**
 * Entry-name rules of the strict ZIP reader: a name must mean the same file to every tool and every file
 * system, so anything a tool could read differently (encodings, separators, case, look-alikes) is refused.
 */
const utf8 = new TextDecoder('utf-8', { fatal: true });

/** C0/C1 controls, DEL, and the bidirectional marks/overrides/isolates that make a name display as another. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: these are exactly the characters refused.
const forbiddenChars = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/**
 * A path segment every tool and file system maps to itself: POSIX portable filename characters (`unzip` in the
 * C locale shows other bytes as `#Uxxxx`), from a letter or digit, no trailing dot (Windows drops it), not a
 * Windows device name. A bundle's own names are all of this form.
 */
const portableSegment = /^[A-Za-z0-9]([A-Za-z0-9._-]*[A-Za-z0-9_-])?$/;
const windowsDevice = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])(\.|$)/i;

/** Decodes a raw name: UTF-8 when the UTF-8 flag (bit 11) is set, else it must be ASCII (CP437 would differ). */
export const decodeName = (raw: Buffer, utf8Flag: boolean): string | { error: string } => {
  if (!utf8Flag && raw.some((byte) => byte > 0x7f)) {
    return { error: 'entry name has non-ASCII bytes without the UTF-8 flag (tools would decode it differently)' };
  }
  try {
    return utf8.decode(raw);
  } catch {
    return { error: 'entry name is not valid UTF-8' };
  }
};

/** Why a decoded name is unsafe, or null. Directory names end in `/`. */
export const unsafeNameReason = (name: string): string | null => {
  const shown = JSON.stringify(name);
  if (name === '' || name === '/') return 'entry with an empty name';
  if (forbiddenChars.test(name)) return `entry ${shown} contains a NUL, control or bidi-override character`;
  if (name.includes('\\')) return `entry ${shown} contains a backslash`;
  if (name.startsWith('/') || /^[A-Za-z]:/.test(name)) return `entry ${shown} has an absolute path`;
  const parts = (name.endsWith('/') ? name.slice(0, -1) : name).split('/');
  if (parts.some((part) => part === '..')) return `entry ${shown} escapes the archive (..)`;
  if (parts.some((part) => part === '' || part === '.')) return `entry ${shown} has an empty or "." path segment`;
  if (parts.some((part) => !portableSegment.test(part) || windowsDevice.test(part)))
    return `entry ${shown} is not a portable name (ASCII letters, digits, ".", "_", "-"; no trailing dot or device name)`;
  return null;
};

/** The key two names collide under: NFC, case-folded, without a directory's trailing slash. */
export const collisionKey = (name: string): string => {
  const bare = name.endsWith('/') ? name.slice(0, -1) : name;
  return bare.normalize('NFC').toUpperCase().toLowerCase().normalize('NFC');
};
