import type { Compilable, CompiledQuery, Kysely, QueryResult } from 'kysely';

/** Stands for the call's argument number `index` while the query is built and compiled. */
class Argument {
  constructor(readonly index: number) {}
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- runs on the Kysely it was built with, or a transaction of it
type PreparedQuery<A extends unknown[], R> = (executor: Kysely<any>, ...args: A) => Promise<QueryResult<R>>;

/**
 * A query built and compiled once, then run with new values. Kysely builds the operation tree and compiles the
 * SQL on every call, which costs more than the database's own work on a small indexed query (a sign-in's).
 * `build` is called once, with placeholders for its arguments: it must use them only as values (compared,
 * inserted, set), never to shape the query; compiling checks that each one became a parameter.
 */
export function prepareQuery<A extends unknown[], R>(build: (...args: A) => Compilable<R>): PreparedQuery<A, R> {
  let compiled: CompiledQuery<R> | undefined;
  let sources: number[] = [];
  return async (executor, ...args) => {
    if (!compiled) {
      const query = build(...(Array.from({ length: build.length }, (_, index) => new Argument(index)) as A)).compile();
      sources = query.parameters.map((value) => (value instanceof Argument ? value.index : -1));
      for (let index = 0; index < build.length; index += 1) {
        if (!sources.includes(index)) throw new Error(`prepareQuery: argument ${index} is not a value of the query`);
      }
      compiled = query;
    }
    const constants = compiled.parameters;
    const parameters = sources.map((source, at) => (source < 0 ? constants[at] : args[source]));
    return executor.executeQuery<R>({ ...compiled, parameters });
  };
}
