// One Babel setup for the browser bundle (webpack) and for webpack.config.ts itself. The tests compile with SWC
// (jest.config.js).
module.exports = {
  presets: [
    ['@babel/preset-env', { targets: 'defaults and supports es6-module', bugfixes: true }],
    ['@babel/preset-react', { runtime: 'automatic' }],
    ['@babel/preset-typescript', { allowDeclareFields: true, onlyRemoveTypeImports: true }],
  ],
};
