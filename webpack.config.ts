import path from 'node:path';
import { constants as zlib, type BrotliOptions } from 'node:zlib';
import CompressionPlugin from 'compression-webpack-plugin';
import CssMinimizerPlugin from 'css-minimizer-webpack-plugin';
import HtmlWebpackPlugin from 'html-webpack-plugin';
import MiniCssExtractPlugin from 'mini-css-extract-plugin';
import { Compilation, sources, type Compiler, type Configuration } from 'webpack';
import type { Configuration as DevServerConfiguration } from 'webpack-dev-server';
import { CHUNK_GROUPS_FILE, FONT_GROUP } from './src/config/firstPage';

const apiPort = Number(process.env.PORT ?? 8080);
// Everything that is not the SPA itself comes from the API server, in development too.
/** The files worth compressing (not source maps: only developers fetch those). */
const COMPRESSIBLE = /\.(js|css|html|svg|json|txt)$/;
const serverPaths = ['/api', '/locales', '/config.json', '/cognito', '/s3', '/dev', '/docs', '/health', '/app'];

/**
 * Writes CHUNK_GROUPS_FILE: for each named chunk group loaded on demand (`login`, `onboarding`, ...), the
 * JavaScript and CSS files it needs beyond those the page already loads, under their final hashed names; and
 * under FONT_GROUP, the font files every page uses.
 */
class ChunkGroupsPlugin {
  apply(compiler: Compiler) {
    compiler.hooks.thisCompilation.tap('ChunkGroupsPlugin', (compilation) => {
      compilation.hooks.processAssets.tap({ name: 'ChunkGroupsPlugin', stage: Compilation.PROCESS_ASSETS_STAGE_REPORT }, () => {
        const filesOf = (chunks: Iterable<{ files: Iterable<string> }>) => [...chunks].flatMap((chunk) => [...chunk.files]).filter((file) => /\.(js|css)$/.test(file));
        const initial = new Set([...compilation.entrypoints.values()].flatMap((entrypoint) => filesOf(entrypoint.chunks)));
        const groups: Record<string, string[]> = {};
        for (const [name, group] of compilation.namedChunkGroups) {
          if (!group.isInitial()) groups[name] = [...new Set(filesOf(group.chunks))].filter((file) => !initial.has(file));
        }
        // The typeface's login file (src/styles/fonts.css): every page's text needs it at once.
        groups[FONT_GROUP] = Object.keys(compilation.assets).filter((file) => /figtree-login-wght-normal\.[0-9a-f]+\.woff2$/.test(file));
        compilation.emitAsset(CHUNK_GROUPS_FILE, new sources.RawSource(JSON.stringify(groups)));
      });
    });
  }
}

export default (_env: unknown, argv: { mode?: Configuration['mode'] }): Configuration & { devServer?: DevServerConfiguration } => {
  const production = argv.mode !== 'development';
  return {
    mode: production ? 'production' : 'development',
    entry: './src/index.tsx',
    output: {
      path: path.resolve(__dirname, 'dist'),
      filename: production ? 'assets/[name].[contenthash:10].js' : 'assets/[name].js',
      chunkFilename: production ? 'assets/[name].[contenthash:10].js' : 'assets/[name].js',
      assetModuleFilename: 'assets/[name].[contenthash:10][ext]',
      publicPath: '/',
      clean: true,
    },
    devtool: production ? 'source-map' : 'eval-cheap-module-source-map',
    // Rebuilds after a change (npm start rebuilds when the sources are newer) reuse what did not change.
    cache: { type: 'filesystem', buildDependencies: { config: [__filename] } },
    resolve: {
      extensions: ['.tsx', '.ts', '.js'],
      // The server sends the texts already parsed (src/i18n/locale.ts): the ICU message parser stays out.
      alias: {
        '@formatjs/icu-messageformat-parser$': '@formatjs/icu-messageformat-parser/no-parser.js',
        // react-router's package exports name only its development build (warnings, checks, longer names):
        // production takes the production build that ships beside it.
        ...(production ? { 'react-router$': path.resolve(__dirname, 'node_modules/react-router/dist/production/index.mjs') } : {}),
      },
    },
    module: {
      rules: [
        { test: /\.[jt]sx?$/, exclude: /node_modules/, use: 'babel-loader' },
        // CSS goes into files of its own: the CSP forbids the inline <style> tags style-loader would add.
        { test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] },
        { test: /\.(svg|png|woff2)$/, type: 'asset/resource' },
      ],
    },
    plugins: [
      new HtmlWebpackPlugin({ template: 'public/index.html', favicon: 'public/favicon.svg' }),
      new ChunkGroupsPlugin(),
      new MiniCssExtractPlugin({
        filename: production ? 'assets/[name].[contenthash:10].css' : 'assets/[name].css',
        chunkFilename: production ? 'assets/[name].[contenthash:10].css' : 'assets/[name].css',
      }),
      // Every text file also as brotli and gzip, made once at build time: the server sends the one the browser takes.
      ...(production
        ? [
            new CompressionPlugin<BrotliOptions>({ test: COMPRESSIBLE, filename: '[path][base].br', algorithm: 'brotliCompress', compressionOptions: { params: { [zlib.BROTLI_PARAM_QUALITY]: 11 } }, threshold: 1024, minRatio: 0.9 }),
            new CompressionPlugin({ test: COMPRESSIBLE, filename: '[path][base].gz', algorithm: 'gzip', compressionOptions: { level: 9 }, threshold: 1024, minRatio: 0.9 }),
          ]
        : []),
    ],
    performance: { hints: false },
    // '...' keeps webpack's own JavaScript minifier; the style sheets are minified too (cssnano).
    optimization: { splitChunks: { chunks: 'all' }, runtimeChunk: 'single', minimizer: ['...', new CssMinimizerPlugin()] },
    devServer: {
      port: 3000,
      historyApiFallback: true,
      proxy: [{ context: serverPaths, target: `http://localhost:${apiPort}` }],
    },
  };
};
