// The face detector's thread: SSD MobileNet v1 from @vladmandic/face-api on TensorFlow.js's WebAssembly
// backend, the model read from the package's own files (nothing is fetched). A detection is a second or so of
// computation that would otherwise hold up every request of the server; here it holds up only this thread.
// Plain CommonJS: a worker thread loads its file without the server's TypeScript loader.
'use strict';
const path = require('node:path');
const { parentPort } = require('node:worker_threads');
const faceapi = require('@vladmandic/face-api/dist/face-api.node-wasm.js');

/** A face counts from this score (0–1): SSD MobileNet's usual threshold. */
const MIN_CONFIDENCE = 0.5;
const MODEL_DIR = path.join(path.dirname(require.resolve('@vladmandic/face-api/package.json')), 'model');

const ready = (async () => {
  await faceapi.tf.setBackend('wasm');
  await faceapi.tf.ready();
  await faceapi.nets.ssdMobilenetv1.loadFromDisk(MODEL_DIR);
})();

parentPort.on('message', async ({ id, data, width, height }) => {
  try {
    await ready;
    const tensor = faceapi.tf.tensor3d(data, [height, width, 3], 'int32');
    try {
      const faces = await faceapi.detectAllFaces(tensor, new faceapi.SsdMobilenetv1Options({ minConfidence: MIN_CONFIDENCE }));
      parentPort.postMessage({ id, faces: faces.map((face) => Math.round(face.score * 100) / 100) });
    } finally {
      tensor.dispose();
    }
  } catch (error) {
    parentPort.postMessage({ id, error: String((error && error.message) || error) });
  }
});
