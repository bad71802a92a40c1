// One Babel setup for the browser bundle (webpack), the tests (babel-jest) and webpack.config.ts itself.
module.exports = (api) => {
  const isTest = api.env('test');
  return {
    presets: [
      [
        '@babel/preset-env',
        isTest
          ? { targets: { node: 'current' } }
          : { targets: 'defaults and supports es6-module', bugfixes: true },
      ],
      ['@babel/preset-react', { runtime: 'automatic' }],
      ['@babel/preset-typescript', { allowDeclareFields: true, onlyRemoveTypeImports: true }],
    ],
  };
};
