// Counts the faces in a photo, to flag for the bank's reviewer a selfie or a document without one: never to
// approve anything. The photo is decoded here (sharp), and the detector runs in a worker thread of its own
// (server/workers/faceDetection.cjs), started on first use and kept; if it fails, the next use starts another.
import { Worker } from 'node:worker_threads';
import { atRoot } from '../paths';
import { decodeRgb } from './imageInspection';

export interface FaceDetector {
  /** The confidence (0–1) of each face found in a JPEG or PNG photo. */
  faces(photo: Buffer): Promise<number[]>;
  /** Stops the worker thread, if one runs. */
  close(): Promise<void>;
}

/** The detector looks at 512 × 512: a copy whose longer side is 640 keeps every face it can find. */
const DETECTION_SIDE = 640;
/** A detection takes about a second; one that has not answered in a minute is taken as failed. */
const DETECTION_TIMEOUT_MS = 60_000;

interface Answer {
  id: number;
  faces?: number[];
  error?: string;
}

export function faceDetector(): FaceDetector {
  let worker: Worker | undefined;
  let nextId = 0;
  const pending = new Map<number, { resolve: (faces: number[]) => void; reject: (error: Error) => void; timer: NodeJS.Timeout }>();

  function settle(id: number, outcome: { faces?: number[]; error?: Error }) {
    const waiting = pending.get(id);
    if (!waiting) return;
    pending.delete(id);
    clearTimeout(waiting.timer);
    if (outcome.error) waiting.reject(outcome.error);
    else waiting.resolve(outcome.faces ?? []);
  }

  function thread(): Worker {
    if (worker) return worker;
    const started = new Worker(atRoot('server/workers/faceDetection.cjs'));
    // An idle detector never keeps the server from stopping.
    started.unref();
    started.on('message', ({ id, faces, error }: Answer) => settle(id, error === undefined ? { faces } : { error: new Error(error) }));
    const stopped = (error: Error) => {
      if (worker === started) worker = undefined;
      for (const id of [...pending.keys()]) settle(id, { error });
    };
    started.on('error', stopped);
    started.on('exit', (code) => stopped(new Error(`the face detector stopped (exit code ${code})`)));
    worker = started;
    return started;
  }

  return {
    async faces(photo) {
      const { data, width, height } = await decodeRgb(photo, DETECTION_SIDE);
      const id = (nextId += 1);
      return new Promise<number[]>((resolve, reject) => {
        const timer = setTimeout(() => settle(id, { error: new Error('the face detector did not answer in time') }), DETECTION_TIMEOUT_MS);
        timer.unref();
        pending.set(id, { resolve, reject, timer });
        thread().postMessage({ id, data, width, height }, [data.buffer as ArrayBuffer]);
      });
    },
    async close() {
      const running = worker;
      worker = undefined;
      await running?.terminate();
    },
  };
}
