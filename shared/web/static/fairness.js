// The provably-fair draw recipe v1 (docs/fairness.md), recomputed in the browser with Web Crypto: a player checks
// every roll and shuffle of their game from the revealed seed without trusting the league's audit or its CLI.
//
// Block k of draw n is HMAC-SHA256(server_seed, lp("phantom-league/fair/v1") ‖ lp(utf8(game_id)) ‖
// u32(#client seeds) ‖ lp(utf8(seed_i))… ‖ u64(n) ‖ u32(k)); the draw reads blocks 0, 1, 2, … front to back, and an
// integer below m is `width` bytes masked to bit_length(m - 1) bits, rejected while ≥ m.

export const VERSION_TAG = "phantom-league/fair/v1";
const utf8 = new TextEncoder();

function u32(n) {
  const out = new Uint8Array(4);
  new DataView(out.buffer).setUint32(0, n);
  return out;
}

function u64(n) {
  const out = new Uint8Array(8);
  new DataView(out.buffer).setBigUint64(0, BigInt(n));
  return out;
}

function concat(parts) {
  const out = new Uint8Array(parts.reduce((size, p) => size + p.length, 0));
  let at = 0;
  for (const p of parts) { out.set(p, at); at += p.length; }
  return out;
}

const lp = (bytes) => concat([u32(bytes.length), bytes]);

export function hexToBytes(hex) {
  if (!/^([0-9a-fA-F]{2})*$/.test(hex)) throw new Error(`not hex: ${hex.slice(0, 20)}`);
  return Uint8Array.from(hex.match(/../g) || [], (b) => parseInt(b, 16));
}

export const bytesToHex = (bytes) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");

/** Everything in a block's message before the nonce and the block number. */
export function messagePrefix(gameId, clientSeeds) {
  return concat([lp(utf8.encode(VERSION_TAG)), lp(utf8.encode(gameId)), u32(clientSeeds.length),
    ...clientSeeds.map((seed) => lp(utf8.encode(seed)))]);
}

export function blockMessage(gameId, clientSeeds, nonce, block) {
  return concat([messagePrefix(gameId, clientSeeds), u64(nonce), u32(block)]);
}

export async function sha256Hex(bytes) {
  return bytesToHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}

/** The seed and the game of one recomputation: the HMAC key is imported once. */
export class Recipe {
  static async of(seedBytes, gameId, clientSeeds) {
    if (seedBytes.length !== 32) throw new Error(`the server seed must be 32 bytes, not ${seedBytes.length}`);
    const key = await crypto.subtle.importKey("raw", seedBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    return new Recipe(key, messagePrefix(gameId, clientSeeds));
  }

  constructor(key, prefix) {
    this.key = key;
    this.prefix = prefix;
  }

  async block(nonce, block) {
    const message = concat([this.prefix, u64(nonce), u32(block)]);
    return new Uint8Array(await crypto.subtle.sign("HMAC", this.key, message));
  }

  /** The values of draw `nonce` for `request` ({type: dice, faces, count} | {type: range, low, high} |
   * {type: shuffle, n}), as numbers. */
  async draw(nonce, request) {
    const stream = new ByteStream(this, nonce);
    switch (request.type) {
      case "dice": {
        if (request.faces < 2 || request.count < 1) throw new Error(`bad dice request ${JSON.stringify(request)}`);
        const values = [];
        for (let i = 0; i < request.count; i++) values.push(1 + Number(await stream.below(BigInt(request.faces))));
        return values;
      }
      case "range": {
        const low = BigInt(request.low);
        const high = BigInt(request.high);
        if (low > high) throw new Error(`bad range request ${JSON.stringify(request)}`);
        return [Number(low + (await stream.below(high - low + 1n)))];
      }
      case "shuffle": {
        const order = Array.from({ length: request.n }, (_, i) => i);
        for (let i = request.n - 1; i > 0; i--) {
          const j = Number(await stream.below(BigInt(i + 1)));
          [order[i], order[j]] = [order[j], order[i]];
        }
        return order;
      }
      default:
        throw new Error(`unknown draw request ${request.type}`);
    }
  }
}

class ByteStream {
  constructor(recipe, nonce) {
    this.recipe = recipe;
    this.nonce = nonce;
    this.next = 0;
    this.buffer = new Uint8Array(0);
    this.pos = 0;
  }

  async read(size) {
    while (this.buffer.length - this.pos < size) {
      const block = await this.recipe.block(this.nonce, this.next++);
      this.buffer = concat([this.buffer.slice(this.pos), block]);
      this.pos = 0;
    }
    const out = this.buffer.slice(this.pos, this.pos + size);
    this.pos += size;
    return out;
  }

  /** A BigInt uniform in 0..m-1 by masked rejection sampling; m = 1 reads nothing. */
  async below(m) {
    if (m === 1n) return 0n;
    const bits = (m - 1n).toString(2).length;
    const width = Math.ceil(bits / 8);
    const mask = (1n << BigInt(bits)) - 1n;
    for (;;) {
      const bytes = await this.read(width);
      let x = 0n;
      for (const b of bytes) x = (x << 8n) | BigInt(b);
      x &= mask;
      if (x < m) return x;
    }
  }
}

const same = (a, b) => a.length === b.length && a.every((v, i) => Number(v) === Number(b[i]));

/**
 * Check a game from its audit bundle (JSON lines: a header, then every event of the game and its RNG stream):
 * the revealed seed against its commitment (the RNG's, the game's and the one the player noted), the client seeds
 * against those the players gave, then every recorded draw recomputed. Returns
 * {ok, draws, checked, message, mismatch: {version, nonce, request, expected, found} | null}.
 */
export async function checkBundle(text, { noted = null, onProgress = null } = {}) {
  const lines = text.split("\n").filter((l) => l.trim());
  const header = JSON.parse(lines[0]);
  if (header.recipe_version !== "v1") return fail(`this page knows recipe v1, the game used ${header.recipe_version}`);
  const events = lines.slice(1).map((l) => JSON.parse(l));
  const gameId = header.game_id;
  const game = events.filter((e) => e.stream_id === gameId).sort((a, b) => a.version - b.version);
  const rng = events.filter((e) => e.stream_id === `rng-${gameId}`).sort((a, b) => a.version - b.version);
  const committed = rng.find((e) => e.type === "rng.SeedCommitted");
  const revealed = rng.find((e) => e.type === "rng.SeedRevealed");
  if (!committed) return fail("the RNG stream has no seed commitment");
  if (!revealed) return { ok: false, pending: true, draws: 0, checked: 0, mismatch: null,
    message: "the server seed is not revealed yet" };
  const seed = hexToBytes(revealed.data.server_seed);
  const hash = await sha256Hex(seed);
  const opening = game.find((e) => e.type === "engine.GameOpened");
  for (const [who, value] of [["the RNG's commitment", committed.data.commitment],
    ["the commitment the game opened with", opening && opening.data.commitment], ["the commitment you noted", noted]]) {
    if (value && value.toLowerCase() !== hash) {
      return fail(`the revealed seed hashes to ${hash}, not to ${who} ${value}`);
    }
  }
  const added = rng.filter((e) => e.type === "rng.ClientSeedAdded").sort((a, b) => a.data.seat - b.data.seat);
  const given = game.filter((e) => e.type === "engine.ClientSeedGiven").sort((a, b) => a.data.seat - b.data.seat);
  if (added.length !== given.length || added.some((e, i) => e.data.seat !== given[i].data.seat ||
    e.data.client_seed !== given[i].data.client_seed)) {
    return fail("the client seeds the RNG used are not the ones the players gave");
  }
  const recipe = await Recipe.of(seed, gameId, added.map((e) => e.data.client_seed));
  const draws = game.filter((e) => e.type === "engine.DrawsUsed")
    .flatMap((e) => e.data.draws.map((d) => ({ ...d, version: e.version })));
  let checked = 0;
  for (const [index, d] of draws.entries()) {
    if (d.nonce !== index) {
      return { ...fail(`draw ${index} is numbered ${d.nonce}: draws must be numbered 0, 1, 2, … with no gap`),
        mismatch: { version: d.version, nonce: d.nonce, request: d.request, expected: `nonce ${index}`, found: d.nonce } };
    }
    const expected = await recipe.draw(d.nonce, d.request);
    if (!same(expected, d.values)) {
      return { ok: false, draws: draws.length, checked, mismatch: { version: d.version, nonce: d.nonce, request: d.request,
        expected, found: d.values },
      message: `draw #${d.nonce} (event ${d.version}) differs: the recipe gives [${expected.join(", ")}], ` +
        `the game used [${d.values.join(", ")}]` };
    }
    checked += 1;
    if (onProgress && checked % 50 === 0) onProgress(checked, draws.length);
  }
  return { ok: true, draws: draws.length, checked, mismatch: null, seed: revealed.data.server_seed, commitment: hash,
    message: `every roll and shuffle checked here: ${checked} draws recomputed from the revealed seed` };

  function fail(message) {
    return { ok: false, draws: 0, checked: 0, mismatch: null, message };
  }
}
