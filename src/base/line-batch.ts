/**
 * A log whose lines written within one run of the microtask queue go out in one write, at its end.
 * A server that answers a group of requests at once logs their lines with one system call instead
 * of one each, and still before any of those answers is sent: an answer goes out from a microtask
 * queued after its line was logged, so after the write.
 */
export function batchedLines(write: (text: string) => void): (line: string) => void {
  let pending = '';
  const flush = () => {
    const text = pending;
    pending = '';
    write(text);
  };
  return (line) => {
    if (pending === '') queueMicrotask(flush);
    pending += `${line}\n`;
  };
}
