package dev.threadline.core.environment;

/**
 * A shell script run at build time, as root, as its own {@code RUN} step, in the order given.
 *
 * @param name a label for humans (it appears in a Dockerfile comment, sanitised)
 * @param script the script text; a first line starting with {@code #!} picks the interpreter,
 *     otherwise it runs with {@code bash -e}
 */
public record SetupScript(String name, String script) {}
