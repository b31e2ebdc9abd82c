// Text gathered and handed on some 64 KB at a time: a long document (a dry run, a run's --json results, the rows a
// run keeps for its send pass) goes out in few writes and is never held whole.

export interface TextBuffer {
  add(text: string): void;
  /** Hands on whatever is gathered. */
  flush(): void;
}

export function textBuffer(write: (text: string) => void, size = 64 * 1024): TextBuffer {
  let pending = "";
  const flush = () => {
    if (pending === "") return;
    const text = pending;
    pending = "";
    write(text);
  };
  return {
    add(text) {
      pending += text;
      if (pending.length >= size) flush();
    },
    flush,
  };
}
