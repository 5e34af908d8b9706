// Registered names of players, asked of the standings service (/v1/players?ids=...) in batches and kept.
import { getJSON } from "./dom.js";

export class NameBook {
  constructor(base = "") {
    this.base = base;
    this.names = new Map();
    this.asked = new Set();
  }

  learn(ids, names) {
    (ids || []).forEach((id, i) => { if (id && names && names[i]) this.names.set(id, names[i]); });
  }

  name(id) {
    return id ? this.names.get(id) || null : null;
  }

  /** Names for a list of ids (null where unknown), asking the server once for those never asked. */
  async lookup(ids) {
    const wanted = [...new Set((ids || []).filter((id) => id && !this.names.has(id) && !this.asked.has(id)))];
    for (let i = 0; i < wanted.length; i += 200) {
      const chunk = wanted.slice(i, i + 200);
      chunk.forEach((id) => this.asked.add(id));
      try {
        const page = await getJSON(`${this.base}/v1/players?ids=${chunk.map(encodeURIComponent).join(",")}&limit=500`);
        page.items.forEach((p) => this.names.set(p.player_id, p.name));
      } catch (error) {
        chunk.forEach((id) => this.asked.delete(id));
        throw error;
      }
    }
    return (ids || []).map((id) => this.name(id));
  }
}
