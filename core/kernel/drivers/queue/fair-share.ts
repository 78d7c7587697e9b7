/**
 * Which waiting job a free worker of one node takes, so that tenants share the node fairly (DESIGN,
 * wave 3: one job service, scheduling tenants fairly). Jobs are grouped (AddOptions.group, the
 * tenant); free workers go round robin between the groups with jobs waiting, and a group holds at most
 * `cap` of the node's workers while another group has jobs waiting. A group alone takes every free
 * worker: no fixed slowdown when nobody else waits. A job that runs is never stopped, so a burst that
 * filled the workers while alone gives them back as its jobs end, each to another group first.
 * Within a group, jobs start in the order they became due.
 */
export class FairShare<T> {
  /** Groups with jobs waiting, in round-robin order (a group that just started a job goes last). */
  private readonly waiting = new Map<string, T[]>();
  /** Jobs running per group on this node. */
  private readonly running = new Map<string, number>();

  /** `cap`: workers one group may hold while another waits (Infinity: no cap, only the round robin). */
  constructor(public cap = Infinity) {}

  add(group: string, item: T): void {
    const list = this.waiting.get(group);
    if (list) list.push(item);
    else this.waiting.set(group, [item]);
  }

  /** Takes the job the next free worker runs, counted as running until done(); undefined: none may start. */
  take(): { group: string; item: T } | undefined {
    const group = this.next();
    if (group === undefined) return undefined;
    const list = this.waiting.get(group)!;
    const item = list.shift()!;
    this.waiting.delete(group);
    if (list.length > 0) this.waiting.set(group, list);
    this.running.set(group, (this.running.get(group) ?? 0) + 1);
    return { group, item };
  }

  /** A job that take() handed out has ended. */
  done(group: string): void {
    const left = (this.running.get(group) ?? 1) - 1;
    if (left > 0) this.running.set(group, left);
    else this.running.delete(group);
  }

  /** The first group in round-robin order under its cap; over it, a group starts more only when no other waits. */
  private next(): string | undefined {
    for (const group of this.waiting.keys()) {
      if ((this.running.get(group) ?? 0) < this.cap) return group;
    }
    return this.waiting.size === 1 ? this.waiting.keys().next().value : undefined;
  }
}
