import { Observable, Subscriber, Subscription } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { withoutConstructor } from '../../src/runtime/without-constructor.js';

/** An ES5-style class, as RxJS's CommonJS build compiles its own: its constructor counts its runs. */
interface Counted {
  readonly tag: string;
  hello(): string;
}
interface CountedClass {
  new (): Counted;
  runs: number;
  make(): string;
}
const Counted = function (this: { tag: string }) {
  Counted.runs++;
  this.tag = 'from the constructor';
} as unknown as CountedClass;
Counted.runs = 0;
Counted.make = () => 'static';
Counted.prototype.hello = function (this: Counted) {
  return `hello, ${this.tag}`;
};

describe('withoutConstructor: a base class with the prototype chain of another and an empty constructor', () => {
  it("its subclasses' instances are the base's (methods, statics, instanceof), and the base's constructor never runs", () => {
    class Sub extends withoutConstructor(Counted) {
      constructor() {
        super();
        (this as { tag: string }).tag = 'set by the subclass';
      }
    }
    const made = new Sub();
    expect(Counted.runs).toBe(0);
    expect(made).toBeInstanceOf(Counted);
    expect(made).toBeInstanceOf(Sub);
    expect(made.hello()).toBe('hello, set by the subclass');
    expect(Sub.make()).toBe('static');
    expect(Object.keys(made)).toEqual(['tag']);
  });

  it("RxJS's Subscriber and Observable: instances RxJS takes for its own, with no field set behind the subclass's back", () => {
    class Quiet<T> extends withoutConstructor(Subscriber)<T> {}
    const quiet = new Quiet<number>();
    expect(quiet).toBeInstanceOf(Subscriber);
    expect(quiet).toBeInstanceOf(Subscription);
    expect(Object.keys(quiet)).toEqual([]); // new Subscriber() would have set six
    class Empty<T> extends withoutConstructor(Observable)<T> {}
    const empty = new Empty<number>();
    expect(empty).toBeInstanceOf(Observable);
    expect(Object.keys(empty)).toEqual(Object.keys(new Observable<number>()));
  });
});
