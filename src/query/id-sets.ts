/** A list of ids grown as rows are found, without boxing each (a typed array doubled as needed). */
export class IdList {
  private ids = new Int32Array(256);
  length = 0;

  push(id: number) {
    if (this.length === this.ids.length) {
      const grown = new Int32Array(this.length * 2);
      grown.set(this.ids);
      this.ids = grown;
    }
    this.ids[this.length++] = id;
  }

  done(): Int32Array {
    return this.ids.subarray(0, this.length);
  }
}

/** Ids up to this are kept as bits; the few above (ids renumbered after a clash) in a Set. */
const BITS_UP_TO = 1 << 26;

/** A set of version ids: a bitset over the usual small, dense ids. */
export class IdSet {
  private constructor(
    readonly ids: Int32Array,
    private readonly bits: Uint32Array,
    private readonly far: Set<number> | undefined,
  ) {}

  static of(ids: Int32Array): IdSet {
    let max = 0;
    for (let i = 0; i < ids.length; i++) if (ids[i] > max && ids[i] < BITS_UP_TO) max = ids[i];
    const bits = new Uint32Array((max >> 5) + 1);
    let far: Set<number> | undefined;
    for (let i = 0; i < ids.length; i++) {
      const id = ids[i];
      if (id < BITS_UP_TO) bits[id >> 5] |= 1 << (id & 31);
      else (far ??= new Set()).add(id);
    }
    return new IdSet(ids, bits, far);
  }

  get size() {
    return this.ids.length;
  }

  has(id: number): boolean {
    if (id >= BITS_UP_TO) return !!this.far?.has(id);
    const word = id >> 5;
    return word < this.bits.length && (this.bits[word] & (1 << (id & 31))) !== 0;
  }
}
