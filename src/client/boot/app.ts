/** A step of the app's start (boot.ts): the app's shared code, evaluated in a task of its own. */
export { Providers } from '../app/providers';
