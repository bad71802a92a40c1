// The Dockerfile read as Docker reads it (dockerfile-ast: continuations, flags, quoting), and a stage's files
// replayed into a folder that stands for the image's `/`: each COPY as Docker performs it, from the build
// context, another stage or a named build context, each given as a folder. RUN and a remote ADD cannot be
// replayed here (no network, no root file system); they are listed so that a test can say what it stands in for.
import { chmodSync, chownSync, cpSync, existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { DockerfileParser, type Instruction } from 'dockerfile-ast';

export interface CopyLine {
  /** `--from`: a stage's name or a named build context; undefined for the main build context. */
  from?: string;
  /** `--chown` as written (`user[:group]`). */
  chown?: string;
  /** `--chmod`, as a mode. */
  chmod?: number;
  sources: string[];
  destination: string;
  /** The working directory the line runs in (its stage's last WORKDIR before it). */
  workdir: string;
  line: number;
}

export interface Stage {
  name?: string;
  image: string;
  env: Record<string, string>;
  /** The last WORKDIR. */
  workdir: string;
  user?: string;
  copies: CopyLine[];
  /** Remote files the stage ADDs: their destinations. */
  downloads: string[];
  runs: string[];
  entrypoint: string[];
  cmd: string[];
}

const COPY_FLAGS = new Set(['from', 'chown', 'chmod', 'link']);

/** The arguments of an instruction: its JSON array (exec form) or its words (shell form). */
function argumentsOf(instruction: Instruction): string[] {
  const content = instruction.getArgumentsContent() ?? '';
  // dockerfile-ast drops the spaces inside the strings of an exec-form array: its JSON is read here instead.
  if (content.trim().startsWith('[')) return JSON.parse(content) as string[];
  return instruction.getArguments().map((argument) => argument.getValue());
}

function commandOf(instruction: Instruction): string[] {
  const content = (instruction.getArgumentsContent() ?? '').trim();
  return content.startsWith('[') ? (JSON.parse(content) as string[]) : ['/bin/sh', '-c', content];
}

/** Every stage of the Dockerfile's text, in order. Fails on what this replay does not know (ARG, variables, heredocs). */
export function readDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  for (const instruction of DockerfileParser.parse(text).getInstructions()) {
    const keyword = instruction.getKeyword();
    const line = instruction.getRange().start.line + 1;
    if (keyword === 'FROM') {
      const from = instruction as unknown as { getImage(): string; getBuildStage(): string | null };
      const base = stages.find((stage) => stage.name === from.getImage());
      stages.push({
        name: from.getBuildStage() ?? undefined,
        image: from.getImage(),
        // A stage built on another starts with its environment and working directory.
        env: { ...base?.env },
        workdir: base?.workdir ?? '/',
        user: base?.user,
        copies: [],
        downloads: [],
        runs: [],
        entrypoint: base?.entrypoint ?? [],
        cmd: base?.cmd ?? [],
      });
      continue;
    }
    const stage = stages.at(-1);
    if (!stage) throw new Error(`Dockerfile line ${line}: ${keyword} before any FROM`);
    if ((instruction.getArgumentsContent() ?? '').includes('$') && keyword !== 'RUN' && keyword !== 'HEALTHCHECK') {
      throw new Error(`Dockerfile line ${line}: variables are not replayed here`);
    }
    switch (keyword) {
      case 'ARG':
        throw new Error(`Dockerfile line ${line}: ARG is not replayed here`);
      case 'ENV':
        for (const property of (instruction as unknown as { getProperties(): { getName(): string; getValue(): string | null }[] }).getProperties()) {
          stage.env[property.getName()] = property.getValue() ?? '';
        }
        break;
      case 'WORKDIR':
        stage.workdir = path.posix.resolve(stage.workdir, argumentsOf(instruction)[0]);
        break;
      case 'USER':
        stage.user = argumentsOf(instruction)[0];
        break;
      case 'RUN':
        stage.runs.push(instruction.getArgumentsContent() ?? '');
        break;
      case 'ENTRYPOINT':
        stage.entrypoint = commandOf(instruction);
        // An ENTRYPOINT resets the CMD inherited from the base image.
        stage.cmd = [];
        break;
      case 'CMD':
        stage.cmd = commandOf(instruction);
        break;
      case 'ADD':
      case 'COPY': {
        const copy = instruction as unknown as { getFlags(): { getName(): string; getValue(): string | null }[]; getHeredocs(): unknown[] };
        if (copy.getHeredocs().length > 0) throw new Error(`Dockerfile line ${line}: heredocs are not replayed here`);
        const flags = Object.fromEntries(copy.getFlags().map((flag) => [flag.getName(), flag.getValue() ?? '']));
        for (const name of Object.keys(flags)) {
          if (!COPY_FLAGS.has(name)) throw new Error(`Dockerfile line ${line}: ${keyword} --${name} is not replayed here`);
        }
        const words = argumentsOf(instruction);
        const destination = words.at(-1)!;
        const sources = words.slice(0, -1);
        if (keyword === 'ADD') {
          if (!sources.every((source) => /^https?:\/\//.test(source))) throw new Error(`Dockerfile line ${line}: only ADD of a URL is known here`);
          stage.downloads.push(path.posix.resolve(stage.workdir, destination));
          break;
        }
        stage.copies.push({
          from: flags.from,
          chown: flags.chown,
          chmod: flags.chmod === undefined ? undefined : parseInt(flags.chmod, 8),
          sources,
          destination,
          workdir: stage.workdir,
          line,
        });
        break;
      }
      default:
        // EXPOSE, HEALTHCHECK, LABEL, …: nothing on the file system.
        break;
    }
  }
  return stages;
}

/** The paths of `pattern` (a wildcard only in its last part, as `src/components/*.css`), under `root`. */
function expand(root: string, pattern: string): string[] {
  const relative = pattern.replace(/^\/+/, '');
  const base = path.posix.basename(relative);
  if (!/[*?[]/.test(base)) return [relative];
  if (/[*?[]/.test(path.posix.dirname(relative))) throw new Error(`a wildcard above the last part of ${pattern} is not replayed here`);
  const matcher = new RegExp(`^${base.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')}$`);
  const folder = path.posix.dirname(relative);
  return readdirSync(path.join(root, folder))
    .filter((name) => matcher.test(name))
    .sort()
    .map((name) => path.posix.join(folder, name));
}

/** Owner ids of `--chown`: only what needs no user database (root, or numbers). */
function ownerOf(chown: string): { uid: number; gid: number } {
  const [user, group = user] = chown.split(':');
  const id = (name: string) => {
    if (name === 'root') return 0;
    if (/^\d+$/.test(name)) return Number(name);
    throw new Error(`--chown=${chown}: only root or numeric ids are replayed here`);
  };
  return { uid: id(user), gid: id(group) };
}

function applyToTree(target: string, apply: (file: string) => void): void {
  apply(target);
  if (statSync(target).isDirectory()) for (const name of readdirSync(target)) applyToTree(path.join(target, name), apply);
}

/**
 * Performs a stage's COPY lines into `image` (a folder standing for the image's `/`). `contexts` gives the folder
 * of each source: `''` the main build context, a stage's name the folder standing for that stage's `/`, a named
 * build context its folder. Answers a function mapping a path in the image to the folder.
 */
export function replayCopies(stage: Stage, image: string, contexts: Record<string, string>): (inImage: string) => string {
  const inImage = (file: string) => path.join(image, file);
  for (const copy of stage.copies) {
    const context = contexts[copy.from ?? ''];
    if (context === undefined) throw new Error(`Dockerfile line ${copy.line}: no folder given for --from=${copy.from}`);
    // A stage's paths start at its root; the build contexts' at theirs.
    const sources = copy.sources.flatMap((source) => expand(context, source));
    const destination = path.posix.resolve(copy.workdir, copy.destination);
    const intoFolder = copy.destination.endsWith('/') || sources.length > 1 || copy.sources.some((source) => /[*?[]/.test(source));
    for (const source of sources) {
      const from = path.join(context, source);
      if (!existsSync(from)) throw new Error(`Dockerfile line ${copy.line}: ${source} is not in ${copy.from ?? 'the build context'}`);
      // A folder's contents are copied, never the folder itself; a file goes into a destination ending in "/".
      const to = statSync(from).isDirectory() || !intoFolder ? inImage(destination) : inImage(path.posix.join(destination, path.posix.basename(source)));
      mkdirSync(path.dirname(to), { recursive: true });
      cpSync(from, to, { recursive: true, verbatimSymlinks: true });
      if (copy.chmod !== undefined) applyToTree(to, (file) => chmodSync(file, copy.chmod!));
      if (copy.chown !== undefined && process.getuid?.() === 0) {
        const { uid, gid } = ownerOf(copy.chown);
        applyToTree(to, (file) => chownSync(file, uid, gid));
      }
    }
  }
  return inImage;
}
